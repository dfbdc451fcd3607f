package testing

import (
	"fmt"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	restclient "github.com/kubeclient/client-go/rest"
)

// FakeClient is what every fake clientset offers on top of its typed
// clients: the tracker holding its objects, its reactor chains and the
// record of the actions it received.
type FakeClient interface {
	// Tracker returns the ObjectTracker that stores the client's objects.
	Tracker() ObjectTracker

	// AddReactor appends a reactor for verb and resource to the chain.
	AddReactor(verb, resource string, reaction ReactionFunc)

	// PrependReactor puts a reactor for verb and resource first in the chain.
	PrependReactor(verb, resource string, reaction ReactionFunc)

	// AddWatchReactor appends a watch reactor for resource to the chain.
	AddWatchReactor(resource string, reaction WatchReactionFunc)

	// PrependWatchReactor puts a watch reactor for resource first in the
	// chain.
	PrependWatchReactor(resource string, reaction WatchReactionFunc)

	// AddProxyReactor appends a proxy reactor for resource to the chain.
	AddProxyReactor(resource string, reaction ProxyReactionFunc)

	// PrependProxyReactor puts a proxy reactor for resource first in the
	// chain.
	PrependProxyReactor(resource string, reaction ProxyReactionFunc)

	// Invokes records action and returns the answer of the first reactor
	// that handles it, or defaultReturnObj when none does.
	Invokes(action Action, defaultReturnObj runtime.Object) (runtime.Object, error)

	// InvokesWatch records action and returns the watch of the first watch
	// reactor that handles it.
	InvokesWatch(action Action) (watch.Interface, error)

	// InvokesProxy records action and returns the response of the first
	// proxy reactor that handles it.
	InvokesProxy(action Action) restclient.ResponseWrapper

	// ClearActions forgets the recorded actions.
	ClearActions()

	// Actions returns the recorded actions, oldest first.
	Actions() []Action
}

// Fake records actions and dispatches them to reactor chains. Fake
// clientsets embed it; its zero value is ready to use and has no reactors.
//
// The embedded RWMutex guards the chains and the recorded actions. The
// Invokes methods hold it while the reactors run, so reactors never run
// concurrently (their state needs no locking of its own) but must not call
// back into the same Fake.
type Fake struct {
	sync.RWMutex

	// ReactionChain lists the reactors tried, in order, for Invokes.
	ReactionChain []Reactor
	// WatchReactionChain lists the reactors tried, in order, for
	// InvokesWatch.
	WatchReactionChain []WatchReactor
	// ProxyReactionChain lists the reactors tried, in order, for
	// InvokesProxy.
	ProxyReactionChain []ProxyReactor

	Resources []*metav1.APIResourceList

	actions []Action // every action received, oldest first
}

// Reactor decides whether it handles an action and, if so, answers it.
type Reactor interface {
	// Handles reports whether React should be called for action.
	Handles(action Action) bool
	// React answers action; handled=false passes it to the next reactor.
	React(action Action) (handled bool, ret runtime.Object, err error)
}

// WatchReactor is the Reactor of watch actions.
type WatchReactor interface {
	// Handles reports whether React should be called for action.
	Handles(action Action) bool
	// React answers action with a watch; handled=false passes it on.
	React(action Action) (handled bool, ret watch.Interface, err error)
}

// ProxyReactor is the Reactor of proxy actions.
type ProxyReactor interface {
	// Handles reports whether React should be called for action.
	Handles(action Action) bool
	// React answers action with a response; handled=false passes it on.
	React(action Action) (handled bool, ret restclient.ResponseWrapper, err error)
}

// AddReactor appends a reactor for verb and resource ("*" matches any) to
// the end of the chain.
func (c *Fake) AddReactor(verb, resource string, reaction ReactionFunc) {
	insertReactor[Reactor](c, &c.ReactionChain, &SimpleReactor{Verb: verb, Resource: resource, Reaction: reaction}, false)
}

// PrependReactor puts a reactor for verb and resource at the front of the
// chain, so it is tried before every existing one.
func (c *Fake) PrependReactor(verb, resource string, reaction ReactionFunc) {
	insertReactor[Reactor](c, &c.ReactionChain, &SimpleReactor{Verb: verb, Resource: resource, Reaction: reaction}, true)
}

// AddWatchReactor appends a watch reactor for resource to the chain.
func (c *Fake) AddWatchReactor(resource string, reaction WatchReactionFunc) {
	insertReactor[WatchReactor](c, &c.WatchReactionChain, &SimpleWatchReactor{Resource: resource, Reaction: reaction}, false)
}

// PrependWatchReactor puts a watch reactor for resource at the front of the
// chain.
func (c *Fake) PrependWatchReactor(resource string, reaction WatchReactionFunc) {
	insertReactor[WatchReactor](c, &c.WatchReactionChain, &SimpleWatchReactor{Resource: resource, Reaction: reaction}, true)
}

// AddProxyReactor appends a proxy reactor for resource to the chain.
func (c *Fake) AddProxyReactor(resource string, reaction ProxyReactionFunc) {
	insertReactor[ProxyReactor](c, &c.ProxyReactionChain, &SimpleProxyReactor{Resource: resource, Reaction: reaction}, false)
}

// PrependProxyReactor puts a proxy reactor for resource at the front of the
// chain.
func (c *Fake) PrependProxyReactor(resource string, reaction ProxyReactionFunc) {
	insertReactor[ProxyReactor](c, &c.ProxyReactionChain, &SimpleProxyReactor{Resource: resource, Reaction: reaction}, true)
}

// insertReactor puts r at the front or the end of *chain, under c's lock.
// The three chains differ only in their reactor type.
func insertReactor[R any](c *Fake, chain *[]R, r R, front bool) {
	c.Lock()
	defer c.Unlock()
	if front {
		*chain = append([]R{r}, *chain...)
		return
	}
	*chain = append(*chain, r)
}

// reactorOf is what Reactor, WatchReactor and ProxyReactor have in common:
// a reactor answering with a result of type T.
type reactorOf[T any] interface {
	Handles(action Action) bool
	React(action Action) (handled bool, ret T, err error)
}

// dispatch records action and offers one copy of it to each reactor of
// chain in turn, so what a reactor that declines changes is seen by the
// reactors after it. An answer counts when it is handled and final accepts
// its error. dispatch returns the first answer that counts, with found
// false when none does. The caller holds c's lock.
func dispatch[T any, R reactorOf[T]](c *Fake, chain []R, action Action, final func(err error) bool) (ret T, found bool, err error) {
	c.actions = append(c.actions, action.DeepCopy())
	shared := action.DeepCopy()
	for _, r := range chain {
		if !r.Handles(shared) {
			continue
		}
		if handled, ret, err := r.React(shared); handled && final(err) {
			return ret, true, err
		}
	}
	return ret, false, nil
}

// anyAnswer accepts every handled answer, errors included.
func anyAnswer(error) bool { return true }

// Invokes records action, then offers one copy of it to each reactor of the
// ReactionChain in turn and returns the answer of the first that handles it.
// A reactor that declines may change that copy for the reactors after it.
// When none handles it, Invokes returns defaultReturnObj and no error.
func (c *Fake) Invokes(action Action, defaultReturnObj runtime.Object) (runtime.Object, error) {
	c.Lock()
	defer c.Unlock()
	if ret, found, err := dispatch[runtime.Object](c, c.ReactionChain, action, anyAnswer); found {
		return ret, err
	}
	return defaultReturnObj, nil
}

// InvokesWatch records action and returns the watch of the first
// WatchReactionChain reactor that handles it; with none it fails. As with
// Invokes, all reactors share one copy of the action.
func (c *Fake) InvokesWatch(action Action) (watch.Interface, error) {
	c.Lock()
	defer c.Unlock()
	if ret, found, err := dispatch[watch.Interface](c, c.WatchReactionChain, action, anyAnswer); found {
		return ret, err
	}
	return nil, fmt.Errorf("no watch reactor handles %s", describeAction(action))
}

// InvokesProxy records action and returns the response of the first
// ProxyReactionChain reactor that handles it without error; otherwise nil.
// As with Invokes, all reactors share one copy of the action.
func (c *Fake) InvokesProxy(action Action) restclient.ResponseWrapper {
	c.Lock()
	defer c.Unlock()
	withoutError := func(err error) bool { return err == nil }
	ret, _, _ := dispatch[restclient.ResponseWrapper](c, c.ProxyReactionChain, action, withoutError)
	return ret
}

// ClearActions forgets every recorded action.
func (c *Fake) ClearActions() {
	c.Lock()
	defer c.Unlock()
	c.actions = nil
}

// Actions returns a copy of the recorded actions, oldest first.
func (c *Fake) Actions() []Action {
	c.RLock()
	defer c.RUnlock()
	out := make([]Action, len(c.actions))
	copy(out, c.actions)
	return out
}

// ReactionFunc answers an action with an object or an error. Returning
// handled=false lets the next reactor in the chain try; inspect
// action.GetSubresource() to react to subresources.
type ReactionFunc func(action Action) (handled bool, ret runtime.Object, err error)

// WatchReactionFunc answers a watch action; handled=false passes it on.
type WatchReactionFunc func(action Action) (handled bool, ret watch.Interface, err error)

// ProxyReactionFunc answers a proxy action; handled=false passes it on.
type ProxyReactionFunc func(action Action) (handled bool, ret restclient.ResponseWrapper, err error)

// SimpleReactor handles the actions whose verb and resource match Verb and
// Resource by calling Reaction. "*" matches any verb or resource, and a
// Resource like "pods/status" matches only that subresource.
type SimpleReactor struct {
	Verb     string
	Resource string

	Reaction ReactionFunc
}

// SimpleWatchReactor handles the watch actions on Resource ("*" for all)
// by calling Reaction.
type SimpleWatchReactor struct {
	Resource string

	Reaction WatchReactionFunc
}

// SimpleProxyReactor handles the proxy actions on Resource ("*" for all)
// by calling Reaction.
type SimpleProxyReactor struct {
	Resource string

	Reaction ProxyReactionFunc
}

// The three simple reactors select actions the same way, the plain one by
// verb as well, and answer with their Reaction.

// Handles reports whether the verb and resource of action match.
func (r *SimpleReactor) Handles(action Action) bool {
	return (r.Verb == "*" || r.Verb == action.GetVerb()) && resourceMatches(r.Resource, action)
}

// Handles reports whether the resource of action matches.
func (r *SimpleWatchReactor) Handles(action Action) bool { return resourceMatches(r.Resource, action) }

// Handles reports whether the resource of action matches.
func (r *SimpleProxyReactor) Handles(action Action) bool { return resourceMatches(r.Resource, action) }

// React calls Reaction.
func (r *SimpleReactor) React(action Action) (bool, runtime.Object, error) { return r.Reaction(action) }

// React calls Reaction.
func (r *SimpleWatchReactor) React(action Action) (bool, watch.Interface, error) {
	return r.Reaction(action)
}

// React calls Reaction.
func (r *SimpleProxyReactor) React(action Action) (bool, restclient.ResponseWrapper, error) {
	return r.Reaction(action)
}

// DefaultWatchReactor returns a WatchReactionFunc that answers every watch
// with watchInterface and err.
func DefaultWatchReactor(watchInterface watch.Interface, err error) WatchReactionFunc {
	return func(Action) (bool, watch.Interface, error) {
		return true, watchInterface, err
	}
}

// resourceMatches reports whether the reactor resource pattern ("*",
// "pods" or "pods/status") covers the resource of action.
func resourceMatches(pattern string, action Action) bool {
	if pattern == "*" {
		return true
	}
	res := action.GetResource().Resource
	if pattern == res {
		return true
	}
	top, sub, ok := strings.Cut(pattern, "/")
	return ok && top == res && sub == action.GetSubresource()
}
