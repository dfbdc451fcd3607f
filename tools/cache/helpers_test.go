package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/rest"
)

// Helpers shared by this package's test files: object builders, scripted
// and recording ListerWatchers and stores, the queue helpers and the
// in-memory API server. A helper used by one test file stays in it.

// TestMain drops apimachinery's error backoff (the second of
// utilruntime.ErrorHandlers), which sleeps after an error for as long as
// the time since the previous one is negative: in a synctest bubble
// time.Now is the bubble's clock, years before the real time an earlier
// test's error was stamped with, and the backoff would sleep that long.
func TestMain(m *testing.M) {
	utilruntime.ErrorHandlers = utilruntime.ErrorHandlers[:1]
	os.Exit(m.Run())
}

// pod returns a pod with the given namespace, name, resource version and
// labels.
func pod(ns, name, rv string, labels map[string]string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

// sorted returns a sorted copy of s.
func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// keysOf returns the sorted namespace/name keys of objs.
func keysOf(t *testing.T, objs []interface{}) []string {
	t.Helper()
	var keys []string
	for _, o := range objs {
		k, err := MetaNamespaceKeyFunc(o)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return sorted(keys)
}

// rvGauges records the resource-version gauges a store publishes.
type rvGauges struct {
	mu     sync.Mutex
	values []float64
}

func (g *rvGauges) NewQueuedItemMetric(InformerNameAndResource) GaugeMetric { return discardMetric{} }

func (g *rvGauges) NewProcessingLatencyMetric(InformerNameAndResource) HistogramMetric {
	return discardMetric{}
}

func (g *rvGauges) NewStoreResourceVersionMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(v float64) { g.mu.Lock(); g.values = append(g.values, v); g.mu.Unlock() })
}

// scriptedLW is a ListerWatcher whose answers are decided by test
// functions; it records every request's options.
type scriptedLW struct {
	mu      sync.Mutex
	lists   []metav1.ListOptions
	watches []metav1.ListOptions

	list  func(call int, opts metav1.ListOptions) (runtime.Object, error)
	watch func(call int, opts metav1.ListOptions) (watch.Interface, error)
	// noWatchList makes the reflector skip watch-list streaming.
	noWatchList bool
}

func (s *scriptedLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	s.lists = append(s.lists, opts)
	n := len(s.lists)
	s.mu.Unlock()
	return s.list(n, opts)
}

func (s *scriptedLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	s.watches = append(s.watches, opts)
	n := len(s.watches)
	s.mu.Unlock()
	return s.watch(n, opts)
}

func (s *scriptedLW) IsWatchListSemanticsUnSupported() bool { return s.noWatchList }

func (s *scriptedLW) recorded() ([]metav1.ListOptions, []metav1.ListOptions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]metav1.ListOptions(nil), s.lists...), append([]metav1.ListOptions(nil), s.watches...)
}

// podList returns a list of pods at resource version rv with continue
// token cont.
func podList(rv string, cont string, pods ...*v1.Pod) *v1.PodList {
	l := &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: cont}}
	for _, p := range pods {
		l.Items = append(l.Items, *p)
	}
	return l
}

// fastBackoff is a reflector backoff of at most 5ms.
func fastBackoff() *wait.Backoff {
	return &wait.Backoff{Duration: time.Millisecond, Cap: 5 * time.Millisecond, Steps: 5, Factor: 2}
}

// describeDeltas renders deltas as "Type:name@rv" for compact comparison.
func describeDeltas(d Deltas) string {
	parts := make([]string, 0, len(d))
	for _, delta := range d {
		switch o := delta.Object.(type) {
		case *v1.Pod:
			parts = append(parts, fmt.Sprintf("%s:%s@%s", delta.Type, o.Name, o.ResourceVersion))
		case DeletedFinalStateUnknown:
			inner := "nil"
			if p, ok := o.Obj.(*v1.Pod); ok {
				inner = p.Name + "@" + p.ResourceVersion
			}
			parts = append(parts, fmt.Sprintf("%s:tombstone(%s,%s)", delta.Type, o.Key, inner))
		default:
			parts = append(parts, fmt.Sprintf("%s:%T", delta.Type, o))
		}
	}
	return strings.Join(parts, " ")
}

func popDeltas(t *testing.T, q Queue) (Deltas, bool) {
	t.Helper()
	var inInitial bool
	obj, err := q.Pop(func(obj interface{}, initial bool) error {
		inInitial = initial
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	return obj.(Deltas), inInitial
}

// pendingDeltas is how many pops a delta queue can make without blocking.
func pendingDeltas(q Queue) int {
	switch f := q.(type) {
	case *DeltaFIFO:
		f.lock.Lock()
		defer f.lock.Unlock()
		return f.byKey.pending()
	case *RealFIFO:
		f.lock.Lock()
		defer f.lock.Unlock()
		return f.stream.pending()
	}
	panic(fmt.Sprintf("not a delta queue: %T", q))
}

// drainDeltas pops everything queued and describes each pop.
func drainDeltas(t *testing.T, q Queue) []string {
	t.Helper()
	var pops []string
	for pendingDeltas(q) > 0 {
		d, _ := popDeltas(t, q)
		pops = append(pops, describeDeltas(d))
	}
	return pops
}

// fakeKnownObjects is a KeyListerGetter whose listing and lookups a test
// chooses: keys lists, objs answers lookups, and a key in failing makes
// its lookup fail.
type fakeKnownObjects struct {
	keys    []string
	objs    map[string]interface{}
	failing map[string]bool
}

func (k *fakeKnownObjects) ListKeys() []string { return k.keys }

func (k *fakeKnownObjects) GetByKey(key string) (interface{}, bool, error) {
	if k.failing[key] {
		return nil, false, errors.New("lookup failed")
	}
	obj, ok := k.objs[key]
	return obj, ok, nil
}

// knownPods returns known objects holding the given pods.
func knownPods(pods ...*v1.Pod) *fakeKnownObjects {
	k := &fakeKnownObjects{objs: map[string]interface{}{}}
	for _, p := range pods {
		key := p.Namespace + "/" + p.Name
		k.keys = append(k.keys, key)
		k.objs[key] = p
	}
	return k
}

// labelTransform marks the pods it transforms and counts its calls.
func labelTransform(calls *int) TransformFunc {
	return func(obj interface{}) (interface{}, error) {
		*calls++
		p := obj.(*v1.Pod).DeepCopy()
		p.Labels = map[string]string{"transformed": "yes"}
		return p, nil
	}
}

func isTransformed(obj interface{}) bool {
	p, ok := obj.(*v1.Pod)
	return ok && p.Labels["transformed"] == "yes"
}

// eventLog is a handler that records notifications as strings.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(format string, args ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

// name is a pod's name, or "tombstone:<key>".
func name(obj interface{}) string {
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		return "tombstone:" + tomb.Key
	}
	return obj.(*v1.Pod).Name
}

func (l *eventLog) OnAdd(obj interface{}, initial bool) {
	l.add("add %s initial=%v", name(obj), initial)
}

func (l *eventLog) OnUpdate(o, n interface{}) { l.add("update %s", name(n)) }

func (l *eventLog) OnDelete(obj interface{}) { l.add("delete %s", name(obj)) }

func (l *eventLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

func (l *eventLog) sortedSnapshot() []string {
	s := l.snapshot()
	sort.Strings(s)
	return s
}

// startInformer runs inf until the returned cancel, which waits for it
// to stop.
func startInformer(t *testing.T, inf SharedInformer) (cancel func()) {
	t.Helper()
	ctx, cancelCtx := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.RunWithContext(ctx)
	}()
	return func() {
		cancelCtx()
		<-done
	}
}

// podAPIServer serves /api/v1/namespaces/ns/pods in the real JSON wire
// format: paginated lists, watch streams and metav1.Status errors.
type podAPIServer struct {
	mu       sync.Mutex
	pods     []v1.Pod
	rv       int
	requests []string // raw query strings
	// watchList makes the server support sendInitialEvents.
	watchList bool
	// events are streamed to the first plain watch.
	events []metav1.WatchEvent
}

func (s *podAPIServer) writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(&metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: int32(code), Reason: reason, Message: msg,
	})
}

// watchEvent is the wire form of a watch event of obj.
func watchEvent(t watch.EventType, obj runtime.Object) metav1.WatchEvent {
	raw, _ := json.Marshal(obj)
	return metav1.WatchEvent{Type: string(t), Object: runtime.RawExtension{Raw: raw}}
}

func (s *podAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.RawQuery)
	s.mu.Unlock()
	if r.URL.Path != "/api/v1/namespaces/ns/pods" {
		s.writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "no such path "+r.URL.Path)
		return
	}
	q := r.URL.Query()
	if q.Get("watch") == "true" {
		s.serveWatch(w, q.Get("sendInitialEvents") == "true")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	offset := 0
	if c := q.Get("continue"); c != "" {
		offset, _ = strconv.Atoi(c)
	}
	end := len(s.pods)
	list := &v1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}}
	list.ResourceVersion = strconv.Itoa(s.rv)
	if limit, _ := strconv.Atoi(q.Get("limit")); limit > 0 && offset+limit < end {
		end = offset + limit
		list.Continue = strconv.Itoa(end)
	}
	list.Items = s.pods[offset:end]
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

func (s *podAPIServer) serveWatch(w http.ResponseWriter, initial bool) {
	s.mu.Lock()
	if initial && !s.watchList {
		s.mu.Unlock()
		s.writeStatus(w, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, "sendInitialEvents is forbidden")
		return
	}
	var events []metav1.WatchEvent
	if initial {
		for i := range s.pods {
			events = append(events, watchEvent(watch.Added, &s.pods[i]))
		}
		end := &v1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{
			ResourceVersion: strconv.Itoa(s.rv),
			Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
		}}
		events = append(events, watchEvent(watch.Bookmark, end))
	}
	events = append(events, s.events...)
	s.events = nil
	s.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	for _, e := range events {
		_ = enc.Encode(&e)
	}
	w.(http.Flusher).Flush()
	// Keep the stream open like a real server until the client leaves.
	<-w.(http.CloseNotifier).CloseNotify()
}

// podClient is a REST client for core/v1 pods served on n.
func podClient(t *testing.T, n *pipeNet) *rest.RESTClient {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	codecs := serializer.NewCodecFactory(scheme)
	client, err := rest.RESTClientFor(&rest.Config{
		Host:    "http://pipe",
		Dial:    n.DialContext,
		APIPath: "/api",
		ContentConfig: rest.ContentConfig{
			GroupVersion:         &v1.SchemeGroupVersion,
			NegotiatedSerializer: codecs.WithoutConversion(),
		},
	})
	if err != nil {
		t.Fatalf("RESTClientFor: %v", err)
	}
	return client
}

// newPodAPIServer returns a server holding n pods, p0 to p<n-1>, at
// resource version 100.
func newPodAPIServer(n int) *podAPIServer {
	s := &podAPIServer{rv: 100}
	for i := 0; i < n; i++ {
		s.pods = append(s.pods, v1.Pod{
			TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p" + strconv.Itoa(i), ResourceVersion: strconv.Itoa(10 + i)},
		})
	}
	return s
}

// unsupportedClient marks a ListerWatcher without watch-list support.
type unsupportedClient struct{}

func (unsupportedClient) IsWatchListSemanticsUnSupported() bool { return true }

// networkStream makes a fake watch pass for one the rest client reads from
// the network (a watchstream.Stream), which is what stall detection and
// cut reporting look at. cut, when set, is the error that cut its stream.
type networkStream struct {
	watch.Interface
	cut error
}

func (s *networkStream) CutError() error { return s.cut }

// tooLargeResourceVersion is the error an API server returns for a
// resource version it has not reached yet.
func tooLargeResourceVersion(rv, current int) error {
	err := apierrors.NewTimeoutError(fmt.Sprintf("Too large resource version: %d, current: %d", rv, current), 1)
	err.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeResourceVersionTooLarge, Message: "Too large resource version"}}
	return err
}

// versionRecorder is a store that records the versions the reflector
// passes on.
type versionRecorder struct {
	Store
	versions []string
}

func (s *versionRecorder) UpdateResourceVersion(rv string) { s.versions = append(s.versions, rv) }

// byLabel indexes pods by the comma-separated values of a label.
func byLabel(label string) IndexFunc {
	return func(obj interface{}) ([]string, error) {
		v, ok := obj.(*v1.Pod).Labels[label]
		if !ok {
			return nil, nil
		}
		return strings.Split(v, ","), nil
	}
}

// gaugeFunc is a GaugeMetric and HistogramMetric that calls itself on
// Set.
type gaugeFunc func(float64)

func (g gaugeFunc) Set(v float64) { g(v) }

func (g gaugeFunc) Observe(v float64) {}

// podInformerRig is a running shared informer over a fake list and watch.
type podInformerRig struct {
	events  *watch.FakeWatcher
	updates atomic.Int64
	// reached is signalled when updates hits target.
	target  atomic.Int64
	reached chan struct{}
	stop    context.CancelFunc
	done    sync.WaitGroup
	inf     SharedIndexInformer
}

// startPodInformer runs an informer whose list returns listed and whose
// watch is fed through rig.events; it returns once the cache has synced.
// configure, if any, is applied to the informer before it starts.
func startPodInformer(tb testing.TB, listed []v1.Pod, configure ...func(*sharedIndexInformer)) *podInformerRig {
	rig := &podInformerRig{events: watch.NewFakeWithChanSize(1024, false), reached: make(chan struct{}, 1)}
	watched := false
	lw := &ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			items := listed
			listed = nil // the informer's cache is the only holder afterwards
			return &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: items}, nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			if watched {
				return watch.NewFake(), nil
			}
			watched = true
			return rig.events, nil
		},
	}
	rig.inf = NewSharedIndexInformer(ToListWatcherWithWatchListSemantics(lw, listThenWatch{}), &v1.Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_, err := rig.inf.AddEventHandler(ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj interface{}) {
			if rig.updates.Add(1) == rig.target.Load() {
				rig.reached <- struct{}{}
			}
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range configure {
		c(rig.inf.(*sharedIndexInformer))
	}
	ctx, cancel := context.WithCancel(context.Background())
	rig.stop = cancel
	rig.done.Add(1)
	go func() {
		defer rig.done.Done()
		rig.inf.RunWithContext(ctx)
	}()
	if !WaitForCacheSync(ctx.Done(), rig.inf.HasSynced) {
		tb.Fatal("informer did not sync")
	}
	return rig
}

// listThenWatch is a client without watch-list support: the informer
// lists, then watches.
type listThenWatch struct{}

func (listThenWatch) IsWatchListSemanticsUnSupported() bool { return true }

func (rig *podInformerRig) shutdown() {
	rig.stop()
	rig.done.Wait()
}

// modify sends pods as MODIFIED events and waits until the handler saw
// them all.
func (rig *podInformerRig) modify(pods []*v1.Pod) {
	rig.target.Store(rig.updates.Load() + int64(len(pods)))
	for _, p := range pods {
		rig.events.Modify(p)
	}
	<-rig.reached
}

func realisticPodList(tb testing.TB, n, rv int) []v1.Pod {
	pods := make([]v1.Pod, n)
	for i := range pods {
		pods[i] = *realisticPod(tb, i, rv)
	}
	return pods
}

// settled waits until every goroutine of the caller's synctest bubble but
// the caller is durably blocked, that is until everything the test set
// off has happened up to the bubble's next timer, and fails the test
// unless cond then holds. The bubble's clock does not move meanwhile: a
// test waiting for a timer (a backoff, a resync) moves it with time.Sleep.
func settled(t *testing.T, what string, cond func() bool) {
	t.Helper()
	synctest.Wait()
	if !cond() {
		t.Fatalf("%s: not the case once everything settled", what)
	}
}

// pipeNet serves an http.Handler over in-memory connections (net.Pipe).
// Unlike sockets, a synctest bubble sees a goroutine blocked on them as
// blocked, so a client and a server in one bubble settle like any other
// goroutines. It is the listener of its server and the dialer of the
// clients (see podClient).
type pipeNet struct {
	srv   *http.Server
	conns chan net.Conn
	// done is closed by Close; closeOnce guards it.
	done      chan struct{}
	closeOnce sync.Once
}

// newPipeNet serves h until the returned close, which ends every
// connection.
func newPipeNet(h http.Handler) (n *pipeNet, closeAll func()) {
	n = &pipeNet{srv: &http.Server{Handler: h}, conns: make(chan net.Conn), done: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = n.srv.Serve(n)
	}()
	return n, func() {
		_ = n.srv.Close()
		<-served
	}
}

// Accept hands the server the next connection a client dialled.
func (n *pipeNet) Accept() (net.Conn, error) {
	select {
	case c := <-n.conns:
		return c, nil
	case <-n.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and DialContext.
func (n *pipeNet) Close() error {
	n.closeOnce.Do(func() { close(n.done) })
	return nil
}

// Addr names the in-memory network.
func (n *pipeNet) Addr() net.Addr { return pipeAddr{} }

// DialContext connects a client to the server, whatever the address.
func (n *pipeNet) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case n.conns <- server:
		return client, nil
	case <-n.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// pipeAddr is the address of a pipeNet.
type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// inBubble returns a test function that runs f inside a synctest bubble,
// for t.Run.
func inBubble(f func(t *testing.T)) func(t *testing.T) {
	return func(t *testing.T) { synctest.Test(t, f) }
}

// bookmarkRecorder is a store that hears about bookmarks and fails adds of
// pods named "bad".
type bookmarkRecorder struct {
	Store
	mu        sync.Mutex
	bookmarks []string
}

func (s *bookmarkRecorder) Bookmark(rv string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bookmarks = append(s.bookmarks, rv)
	return nil
}

func (s *bookmarkRecorder) Add(obj interface{}) error {
	if p, ok := obj.(*v1.Pod); ok && p.Name == "bad" {
		return errors.New("refused")
	}
	return s.Store.Add(obj)
}

// initialEventsEnd is the bookmark that ends a watch-list's initial events.
func initialEventsEnd(rv string) *v1.Pod {
	end := pod("", "", rv, nil)
	end.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	return end
}
