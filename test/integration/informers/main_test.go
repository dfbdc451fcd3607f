// Package informers tests the library's informers against a real
// kube-apiserver: typed (informers.SharedInformerFactory), dynamic
// (dynamicinformer) and metadata (metadatainformer) informers of ConfigMaps
// sync, then follow a thousand concurrent creates, updates, deletes and
// re-creates to exactly the server's final state, with event handlers that
// see every object's final resourceVersion last; they survive a
// kube-apiserver restart in the middle of the writes without losing an
// update; and their initial sync streams the state through a watch-list
// request when the WatchListClient feature is on and lists then watches when
// it is off.
package informers

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/dynamic/dynamicinformer"
	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/metadata/metadatainformer"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/tools/cache"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }

// configMapsGVR is the resource every informer of this package watches.
var configMapsGVR = corev1.SchemeGroupVersion.WithResource("configmaps")

// convergeTimeout bounds every poll for an informer to reach the server's
// state.
const convergeTimeout = 60 * time.Second

// objState is what the tests compare of one ConfigMap.
type objState struct {
	RV   string
	Data map[string]string // nil for metadata-only objects
}

func (s objState) String() string {
	if s.Data == nil {
		return "rv=" + s.RV
	}
	keys := slices.Sorted(maps.Keys(s.Data))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+s.Data[k])
	}
	return fmt.Sprintf("rv=%s data={%s}", s.RV, strings.Join(parts, ","))
}

// stateOf returns the name and state of an object an informer delivered or
// cached: a typed ConfigMap, an Unstructured one, PartialObjectMetadata, or
// a DeletedFinalStateUnknown wrapping one of those.
func stateOf(obj any) (string, objState, error) {
	switch o := obj.(type) {
	case *corev1.ConfigMap:
		return o.Name, objState{RV: o.ResourceVersion, Data: nonEmpty(o.Data)}, nil
	case *unstructured.Unstructured:
		data, _, err := unstructured.NestedStringMap(o.Object, "data")
		if err != nil {
			return "", objState{}, fmt.Errorf("data of %s: %w", o.GetName(), err)
		}
		if kind := o.GetKind(); kind != "ConfigMap" {
			return "", objState{}, fmt.Errorf("unstructured %s has kind %q, want ConfigMap", o.GetName(), kind)
		}
		return o.GetName(), objState{RV: o.GetResourceVersion(), Data: nonEmpty(data)}, nil
	case *metav1.PartialObjectMetadata:
		return o.Name, objState{RV: o.ResourceVersion}, nil
	case cache.DeletedFinalStateUnknown:
		return stateOf(o.Obj)
	default:
		return "", objState{}, fmt.Errorf("unexpected object %T", obj)
	}
}

func nonEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return map[string]string{}
	}
	return m
}

// rvNumber parses a resourceVersion; kube-apiserver's are etcd revisions,
// which the tests compare to check that events come in order.
func rvNumber(t testing.TB, rv string) int64 {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		t.Errorf("resourceVersion %q is not a number: %v", rv, err)
	}
	return n
}

// startedInformer is one informer of ConfigMaps in one namespace.
type startedInformer struct {
	informer cache.SharedIndexInformer
	// list reads the informer's lister for the namespace.
	list func() ([]runtime.Object, error)
	// start starts the informer's factory until ctx ends.
	start func(ctx context.Context)
	// shutdown waits for the factory's goroutines after ctx ended.
	shutdown func()
}

// informerKind builds one flavour of informer.
type informerKind struct {
	name string
	// withData tells whether the kind's objects carry the ConfigMap data.
	withData bool
	build    func(t *testing.T, cfg *rest.Config, ns string) startedInformer
}

// informerKinds lists the three flavours under test.
var informerKinds = []informerKind{
	{name: "typed", withData: true, build: buildTyped},
	{name: "dynamic", withData: true, build: buildDynamic},
	{name: "metadata", withData: false, build: buildMetadata},
}

func buildTyped(t *testing.T, cfg *rest.Config, ns string) startedInformer {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("kubernetes.NewForConfig: %v", err)
	}
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
	cms := factory.Core().V1().ConfigMaps()
	informer := cms.Informer()
	lister := cms.Lister().ConfigMaps(ns)
	return startedInformer{
		informer: informer,
		list: func() ([]runtime.Object, error) {
			items, err := lister.List(labels.Everything())
			objs := make([]runtime.Object, 0, len(items))
			for _, item := range items {
				objs = append(objs, item)
			}
			return objs, err
		},
		start:    func(ctx context.Context) { factory.Start(ctx.Done()) },
		shutdown: factory.Shutdown,
	}
}

func buildDynamic(t *testing.T, cfg *rest.Config, ns string) startedInformer {
	t.Helper()
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("dynamic.NewForConfig: %v", err)
	}
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, ns, nil)
	generic := factory.ForResource(configMapsGVR)
	lister := generic.Lister().ByNamespace(ns)
	return startedInformer{
		informer: generic.Informer(),
		list:     func() ([]runtime.Object, error) { return lister.List(labels.Everything()) },
		start:    func(ctx context.Context) { factory.Start(ctx.Done()) },
		shutdown: factory.Shutdown,
	}
}

func buildMetadata(t *testing.T, cfg *rest.Config, ns string) startedInformer {
	t.Helper()
	client, err := metadata.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("metadata.NewForConfig: %v", err)
	}
	factory := metadatainformer.NewFilteredSharedInformerFactory(client, 0, ns, nil)
	generic := factory.ForResource(configMapsGVR)
	lister := generic.Lister().ByNamespace(ns)
	return startedInformer{
		informer: generic.Informer(),
		list:     func() ([]runtime.Object, error) { return lister.List(labels.Everything()) },
		start:    func(ctx context.Context) { factory.Start(ctx.Done()) },
		shutdown: factory.Shutdown,
	}
}

// watched is an informer under test with the recorder of its handler.
type watched struct {
	kind informerKind
	startedInformer
	events *eventLog
}

// startInformer builds an informer of kind for ns, registers an eventLog
// handler, starts it and waits until both the informer and the handler
// have synced. The informer is stopped when t ends.
func startInformer(t *testing.T, ctx context.Context, kind informerKind, cfg *rest.Config, ns string) *watched {
	t.Helper()
	w := &watched{kind: kind, startedInformer: kind.build(t, cfg, ns), events: newEventLog(t)}
	reg, err := w.informer.AddEventHandler(w.events)
	if err != nil {
		t.Fatalf("%s: AddEventHandler: %v", kind.name, err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	w.start(runCtx)
	t.Cleanup(func() {
		cancel()
		w.shutdown()
	})
	syncCtx, syncCancel := context.WithTimeout(ctx, convergeTimeout)
	defer syncCancel()
	if !cache.WaitForCacheSync(syncCtx.Done(), w.informer.HasSynced, reg.HasSynced) {
		t.Fatalf("%s informer did not sync within %v", kind.name, convergeTimeout)
	}
	if !w.informer.HasSynced() {
		t.Fatalf("%s informer: WaitForCacheSync returned true but HasSynced is false", kind.name)
	}
	return w
}

// eventKind names the handler callbacks.
type eventKind string

const (
	evAdd    eventKind = "add"
	evUpdate eventKind = "update"
	evDelete eventKind = "delete"
)

// event is one handler callback as recorded.
type event struct {
	kind    eventKind
	state   objState
	initial bool // an add from the initial list
}

// eventLog is a ResourceEventHandler that keeps, per object name, the
// events it received, and checks on the fly that they form a consistent
// chain: an add only for an absent object, an update whose old object is
// the last one delivered, resourceVersions that never go backwards.
type eventLog struct {
	t  testing.TB
	mu sync.Mutex
	// history holds every event per name, in delivery order.
	history map[string][]event
	// violations are chain errors, reported by check.
	violations []string
}

func newEventLog(t testing.TB) *eventLog {
	return &eventLog{t: t, history: map[string][]event{}}
}

func (l *eventLog) violate(format string, args ...any) {
	if len(l.violations) < 20 {
		l.violations = append(l.violations, fmt.Sprintf(format, args...))
	}
}

// OnAdd implements cache.ResourceEventHandler.
func (l *eventLog) OnAdd(obj any, isInInitialList bool) {
	name, st, err := stateOf(obj)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.violate("add: %v", err)
		return
	}
	h := l.history[name]
	if n := len(h); n > 0 {
		last := h[n-1]
		if last.kind != evDelete {
			l.violate("add of %s %v while its last event was %s %v", name, st, last.kind, last.state)
		} else if rvNumber(l.t, st.RV) < rvNumber(l.t, last.state.RV) {
			l.violate("add of %s %v goes back before its delete %v", name, st, last.state)
		}
	}
	l.history[name] = append(h, event{kind: evAdd, state: st, initial: isInInitialList})
}

// OnUpdate implements cache.ResourceEventHandler.
func (l *eventLog) OnUpdate(oldObj, newObj any) {
	oldName, oldSt, err1 := stateOf(oldObj)
	name, st, err2 := stateOf(newObj)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err1 != nil || err2 != nil {
		l.violate("update: %v %v", err1, err2)
		return
	}
	if oldName != name {
		l.violate("update from %s to %s", oldName, name)
	}
	h := l.history[name]
	switch n := len(h); {
	case n == 0:
		l.violate("update of %s %v with no add before", name, st)
	case h[n-1].kind == evDelete:
		l.violate("update of %s %v after its delete %v", name, st, h[n-1].state)
	case h[n-1].state.RV != oldSt.RV:
		l.violate("update of %s: old object %v, but the last delivered was %v", name, oldSt, h[n-1].state)
	}
	if rvNumber(l.t, st.RV) < rvNumber(l.t, oldSt.RV) {
		l.violate("update of %s goes back from %v to %v", name, oldSt, st)
	}
	l.history[name] = append(h, event{kind: evUpdate, state: st})
}

// OnDelete implements cache.ResourceEventHandler.
func (l *eventLog) OnDelete(obj any) {
	name, st, err := stateOf(obj)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.violate("delete: %v", err)
		return
	}
	h := l.history[name]
	switch n := len(h); {
	case n == 0:
		l.violate("delete of %s %v with no add before", name, st)
	case h[n-1].kind == evDelete:
		l.violate("delete of %s %v after its delete %v", name, st, h[n-1].state)
	case rvNumber(l.t, st.RV) < rvNumber(l.t, h[n-1].state.RV):
		l.violate("delete of %s %v goes back before %v", name, st, h[n-1].state)
	}
	l.history[name] = append(h, event{kind: evDelete, state: st})
}

// chainErrors returns the chain violations seen so far.
func (l *eventLog) chainErrors() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.violations)
}

// historyOf returns a copy of the events of name.
func (l *eventLog) historyOf(name string) []event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.history[name])
}

// finalDiffs compares the last event of every object with want (the
// server's final state; objects absent from it were deleted). Deleted
// objects must have a delete as their last event; when allowUnseen is set,
// an object the handler never heard of may also be absent (it lived and
// died while the informer was relisting).
func (l *eventLog) finalDiffs(want map[string]objState, everCreated []string, withData, allowUnseen bool) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var diffs []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		w := want[name]
		h := l.history[name]
		if len(h) == 0 {
			diffs = append(diffs, fmt.Sprintf("%s: no event, want last %v", name, w))
			continue
		}
		last := h[len(h)-1]
		if last.kind == evDelete || !sameState(last.state, w, withData) {
			diffs = append(diffs, fmt.Sprintf("%s: last event %s %v, want add/update %v", name, last.kind, last.state, w))
		}
	}
	for _, name := range everCreated {
		if _, exists := want[name]; exists {
			continue
		}
		h := l.history[name]
		if len(h) == 0 {
			if !allowUnseen {
				diffs = append(diffs, fmt.Sprintf("%s: deleted, but no event at all", name))
			}
			continue
		}
		if last := h[len(h)-1]; last.kind != evDelete {
			diffs = append(diffs, fmt.Sprintf("%s: deleted, but last event %s %v", name, last.kind, last.state))
		}
	}
	for name, h := range l.history {
		if _, exists := want[name]; !exists && !slices.Contains(everCreated, name) {
			diffs = append(diffs, fmt.Sprintf("%s: never written, but events %v", name, h))
		}
	}
	return diffs
}

func sameState(got, want objState, withData bool) bool {
	if got.RV != want.RV {
		return false
	}
	return !withData || maps.Equal(got.Data, want.Data)
}

// storeState reads an informer's lister into a map by name.
func storeState(w *watched) (map[string]objState, error) {
	objs, err := w.list()
	if err != nil {
		return nil, err
	}
	out := make(map[string]objState, len(objs))
	for _, obj := range objs {
		name, st, err := stateOf(obj)
		if err != nil {
			return nil, err
		}
		if !w.kind.withData {
			st.Data = nil
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("lister holds %s twice", name)
		}
		out[name] = st
	}
	return out, nil
}

// stateDiffs lists how got differs from want.
func stateDiffs(got, want map[string]objState, withData bool) []string {
	var diffs []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: missing, want %v", name, want[name]))
		case !sameState(g, want[name], withData):
			diffs = append(diffs, fmt.Sprintf("%s: %v, want %v", name, g, want[name]))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[name]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: %v, but the server has no such object", name, got[name]))
		}
	}
	return diffs
}

// serverState lists the ConfigMaps of ns from the server.
func serverState(ctx context.Context, cs kubernetes.Interface, ns string) (map[string]objState, string, error) {
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, "", err
	}
	out := make(map[string]objState, len(list.Items))
	for _, cm := range list.Items {
		out[cm.Name] = objState{RV: cm.ResourceVersion, Data: nonEmpty(cm.Data)}
	}
	return out, list.ResourceVersion, nil
}

// waitConverged polls until w's store and its handler's last events equal
// want exactly, and fails t with the remaining differences otherwise. It
// reports whether the informer converged.
func waitConverged(t *testing.T, ctx context.Context, w *watched, want map[string]objState, everCreated []string, allowUnseen bool) bool {
	t.Helper()
	var storeDiffs, eventDiffs []string
	var listErr error
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, convergeTimeout, true, func(context.Context) (bool, error) {
		var got map[string]objState
		got, listErr = storeState(w)
		if listErr != nil {
			return false, nil
		}
		storeDiffs = stateDiffs(got, want, w.kind.withData)
		eventDiffs = w.events.finalDiffs(want, everCreated, w.kind.withData, allowUnseen)
		return len(storeDiffs) == 0 && len(eventDiffs) == 0, nil
	})
	if err != nil {
		t.Errorf("%s informer did not converge to the server's %d objects: %v (lister error: %v)\nstore differences (%d): %s\nhandler differences (%d): %s",
			w.kind.name, len(want), err, listErr, len(storeDiffs), head(storeDiffs), len(eventDiffs), head(eventDiffs))
	}
	if v := w.events.chainErrors(); len(v) > 0 {
		t.Errorf("%s informer delivered inconsistent events:\n%s", w.kind.name, strings.Join(v, "\n"))
	}
	return err == nil
}

// head joins the first few lines of diffs.
func head(diffs []string) string {
	const n = 10
	if len(diffs) > n {
		return strings.Join(diffs[:n], "\n") + fmt.Sprintf("\n... and %d more", len(diffs)-n)
	}
	return strings.Join(diffs, "\n")
}

// requestRecord is one request seen by a requestLog.
type requestRecord struct {
	method string
	path   string
	query  url.Values
	status int // 0 when the round trip failed
	done   time.Time
}

func (r requestRecord) isWatch() bool {
	return r.query.Get("watch") == "true" || r.query.Get("watch") == "1"
}

func (r requestRecord) String() string {
	return fmt.Sprintf("%s %s?%s -> %d", r.method, r.path, r.query.Encode(), r.status)
}

// requestLog records the requests sent through the configurations it was
// attached to.
type requestLog struct {
	mu       sync.Mutex
	requests []requestRecord
}

// attach wraps cfg's transport so that l records its requests.
func (l *requestLog) attach(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			rec := requestRecord{method: req.Method, path: req.URL.Path, query: req.URL.Query(), done: time.Now()}
			if err == nil {
				rec.status = resp.StatusCode
			}
			l.mu.Lock()
			l.requests = append(l.requests, rec)
			l.mu.Unlock()
			return resp, err
		})
	})
}

// to returns the requests whose path is path, in the order their responses
// arrived.
func (l *requestLog) to(path string) []requestRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []requestRecord
	for _, r := range l.requests {
		if r.path == path {
			out = append(out, r)
		}
	}
	return out
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// configMapsPath is the URL path of the ConfigMaps of ns.
func configMapsPath(ns string) string { return "/api/v1/namespaces/" + ns + "/configmaps" }

// newClientset returns a typed clientset for writers: no client-side rate
// limit.
func newClientset(t testing.TB) *kubernetes.Clientset {
	t.Helper()
	cfg := controlPlane.AdminConfig()
	cfg.QPS = -1
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("kubernetes.NewForConfig: %v", err)
	}
	return cs
}
