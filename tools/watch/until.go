package watch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache"
)

// PreconditionFunc checks the synced store before waiting starts: true
// means the goal is already reached, an error aborts.
type PreconditionFunc func(store cache.Store) (bool, error)

// ConditionFunc checks one event: true when reached, an error to abort.
// Prefer level-driven conditions (the pod is ready) over edge-driven ones
// (the pod became ready).
type ConditionFunc func(event watch.Event) (bool, error)

// UntilWithoutRetry reads events from watcher until the conditions are met
// one after another (an event meeting one condition is also offered to the
// next), and returns the last event. An error from a condition ends the
// wait with that event. The watch ending returns ErrWatchClosed; ctx
// ending returns wait.ErrorInterrupted(nil) (wait.Interrupted reports true
// for it). It breaks on any watch interruption:
// prefer Until or UntilWithSync.
func UntilWithoutRetry(ctx context.Context, watcher watch.Interface, conditions ...ConditionFunc) (*watch.Event, error) {
	defer watcher.Stop()
	remaining := conditionChain(conditions)
	var last *watch.Event
	for len(remaining) > 0 {
		select {
		case <-ctx.Done():
			return last, wait.ErrorInterrupted(nil)
		case event, open := <-watcher.ResultChan():
			if !open {
				return last, ErrWatchClosed
			}
			last = &event
			var err error
			if remaining, err = remaining.advance(event); err != nil {
				return last, err
			}
		}
	}
	return last, nil
}

// ErrWatchClosed reports, from UntilWithoutRetry, a watch that ended
// before the conditions were met.
var ErrWatchClosed = errors.New("watch closed before UntilWithoutRetry timeout")

// conditionChain is the conditions still to be met, in order.
type conditionChain []ConditionFunc

// advance offers event to the first condition and, each time one is met,
// to the next, and returns the conditions still to be met.
func (c conditionChain) advance(event watch.Event) (conditionChain, error) {
	for len(c) > 0 {
		met, err := c[0](event)
		if err != nil || !met {
			return c, err
		}
		c = c[1:]
	}
	return c, nil
}

// Until is UntilWithoutRetry over a RetryWatcher starting at
// initialResourceVersion (which must not be "" or "0"): it survives
// timeouts and dropped connections and sees every event in order, but
// fails when the resource version is too old. See UntilWithSync for a
// variant that recovers by relisting.
func Until(ctx context.Context, initialResourceVersion string, watcherClient cache.Watcher, conditions ...ConditionFunc) (*watch.Event, error) {
	retrying, err := NewRetryWatcherWithContext(ctx, initialResourceVersion, cache.ToWatcherWithContext(watcherClient))
	if err == nil {
		return UntilWithoutRetry(ctx, retrying, conditions...)
	}
	return nil, err
}

// UntilWithSync runs an informer over lw and waits, like UntilWithoutRetry,
// on the events it produces. Once the informer has synced, precondition
// (if set) may declare success at once. It recovers from every error,
// "too old resource version" included, by relisting, at the price of
// possibly merging intermediate states of an object; events are ordered
// per object only.
func UntilWithSync(ctx context.Context, lw cache.ListerWatcher, objType runtime.Object, precondition PreconditionFunc, conditions ...ConditionFunc) (*watch.Event, error) {
	store, informer, events, informerDone := NewIndexerInformerWatcherWithLogger(klog.FromContext(ctx), lw, objType)
	// Stopping the watcher stops the informer; return only once it has
	// stopped, so that callers can reason about it.
	defer func() {
		events.Stop()
		<-informerDone
	}()
	if precondition == nil {
		return UntilWithoutRetry(ctx, events, conditions...)
	}
	if synced := cache.WaitForCacheSync(ctx.Done(), informer.HasSynced); !synced {
		return nil, fmt.Errorf("UntilWithSync: unable to sync caches: %w", ctx.Err())
	}
	if met, err := precondition(store); err != nil || met {
		return nil, err
	}
	return UntilWithoutRetry(ctx, events, conditions...)
}

// ContextWithOptionalTimeout is context.WithTimeout where a zero timeout
// means none. A negative timeout is treated as zero.
func ContextWithOptionalTimeout(parent context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	switch {
	case timeout > 0:
		return context.WithTimeout(parent, timeout)
	case timeout < 0:
		klog.FromContext(parent).Error(nil, "Timeout for context shall not be negative!")
	}
	return context.WithCancel(parent)
}
