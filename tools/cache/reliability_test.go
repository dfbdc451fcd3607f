package cache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
)

// faultCounts records how many faults of each kind were injected.
type faultCounts struct {
	listErrors, watchErrors, watchGone, watchListRejected     atomic.Int64
	closedStreams, errorEvents, goneEvents, bookmarks, tooOld atomic.Int64
}

// faultyServer is an in-memory API server for ConfigMaps that injects
// faults into every list and watch it serves.
type faultyServer struct {
	faults faultCounts

	// mu guards every field below.
	mu      sync.Mutex
	rng     *rand.Rand
	rv      int
	objects map[string]*v1.ConfigMap
	// log holds every change; log[i] has resource version logStart+i+1.
	log      []watch.Event
	logStart int
	// changed is closed and replaced on every change.
	changed chan struct{}
}

func newFaultyServer(seed uint64) *faultyServer {
	return &faultyServer{
		rng:     rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		objects: map[string]*v1.ConfigMap{},
		changed: make(chan struct{}),
	}
}

func (s *faultyServer) chance(p float64) bool { return s.rng.Float64() < p }

// apply records one change, stamping it with the next resource version.
func (s *faultyServer) apply(t watch.EventType, cm *v1.ConfigMap) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv++
	cm = cm.DeepCopy()
	cm.ResourceVersion = strconv.Itoa(s.rv)
	key := cm.Namespace + "/" + cm.Name
	if t == watch.Deleted {
		delete(s.objects, key)
	} else {
		s.objects[key] = cm
	}
	s.log = append(s.log, watch.Event{Type: t, Object: cm})
	close(s.changed)
	s.changed = make(chan struct{})
}

// compact forgets all but the newest keep changes, as etcd compaction does.
func (s *faultyServer) compact(keep int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if drop := len(s.log) - keep; drop > 0 {
		s.log = append([]watch.Event(nil), s.log[drop:]...)
		s.logStart += drop
	}
}

func (s *faultyServer) snapshotLocked() []v1.ConfigMap {
	items := make([]v1.ConfigMap, 0, len(s.objects))
	for _, cm := range s.objects {
		items = append(items, *cm.DeepCopy())
	}
	// Deterministic order helps reproducing failures.
	sort.Slice(items, func(i, j int) bool { return items[i].Name < items[j].Name })
	return items
}

func (s *faultyServer) finalState() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for key, cm := range s.objects {
		out[key] = cm.ResourceVersion
	}
	return out
}

var configMapsResource = schema.GroupResource{Resource: "configmaps"}

func (s *faultyServer) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chance(0.15) {
		s.faults.listErrors.Add(1)
		return nil, apierrors.NewInternalError(fmt.Errorf("injected list failure"))
	}
	if options.ResourceVersion != "" && options.ResourceVersion != "0" {
		if rv, err := strconv.Atoi(options.ResourceVersion); err == nil && rv > s.rv {
			return nil, tooLargeResourceVersion(rv, s.rv)
		}
	}
	list := &v1.ConfigMapList{Items: s.snapshotLocked()}
	list.ResourceVersion = strconv.Itoa(s.rv)
	return list, nil
}

func (s *faultyServer) List(options metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), options)
}

func (s *faultyServer) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), options)
}

func (s *faultyServer) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.chance(0.05) {
		s.faults.watchErrors.Add(1)
		return nil, apierrors.NewServiceUnavailable("injected watch failure")
	}
	var initial []watch.Event
	var from int
	if options.SendInitialEvents != nil && *options.SendInitialEvents {
		if s.chance(0.3) {
			// Pretend to be a server without watch-list support.
			s.faults.watchListRejected.Add(1)
			return nil, apierrors.NewBadRequest("sendInitialEvents is not supported")
		}
		for _, cm := range s.snapshotLocked() {
			initial = append(initial, watch.Event{Type: watch.Added, Object: &cm})
		}
		end := &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			ResourceVersion: strconv.Itoa(s.rv),
			Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
		}}
		initial = append(initial, watch.Event{Type: watch.Bookmark, Object: end})
		from = s.rv
	} else {
		rv, err := strconv.Atoi(options.ResourceVersion)
		if err != nil {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", options.ResourceVersion))
		}
		if rv < s.logStart {
			s.faults.watchGone.Add(1)
			return nil, apierrors.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, s.logStart))
		}
		if rv > s.rv {
			return nil, tooLargeResourceVersion(rv, s.rv)
		}
		from = rv
	}
	w := &faultyWatch{
		server: s,
		result: make(chan watch.Event),
		stop:   make(chan struct{}),
		rng:    rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64())),
	}
	go w.serve(ctx, initial, from, options.AllowWatchBookmarks)
	return w, nil
}

// faultyWatch streams the server's change log from a resource version,
// occasionally breaking in one of the ways real watches break.
type faultyWatch struct {
	server   *faultyServer
	result   chan watch.Event
	stop     chan struct{}
	stopOnce sync.Once
	rng      *rand.Rand // used only by serve
}

func (w *faultyWatch) Stop()                          { w.stopOnce.Do(func() { close(w.stop) }) }
func (w *faultyWatch) ResultChan() <-chan watch.Event { return w.result }

func (w *faultyWatch) send(ctx context.Context, e watch.Event) bool {
	select {
	case w.result <- e:
		return true
	case <-w.stop:
	case <-ctx.Done():
	}
	return false
}

func statusEvent(err *apierrors.StatusError) watch.Event {
	status := err.ErrStatus
	return watch.Event{Type: watch.Error, Object: &status}
}

func (w *faultyWatch) serve(ctx context.Context, initial []watch.Event, from int, bookmarks bool) {
	defer close(w.result)
	s := w.server
	for _, e := range initial {
		if !w.send(ctx, e) {
			return
		}
	}
	pos := from // resource version of the last event sent
	for {
		s.mu.Lock()
		if pos < s.logStart {
			s.mu.Unlock()
			s.faults.tooOld.Add(1)
			w.send(ctx, statusEvent(apierrors.NewResourceExpired("too old resource version")))
			return
		}
		idx := pos - s.logStart
		if idx >= len(s.log) {
			changed := s.changed
			s.mu.Unlock()
			select {
			case <-changed:
				continue
			case <-w.stop:
				return
			case <-ctx.Done():
				return
			}
		}
		e := s.log[idx]
		s.mu.Unlock()

		switch r := w.rng.Float64(); {
		case r < 0.01:
			s.faults.closedStreams.Add(1)
			return
		case r < 0.015:
			s.faults.errorEvents.Add(1)
			w.send(ctx, statusEvent(apierrors.NewInternalError(fmt.Errorf("injected stream failure"))))
			return
		case r < 0.02:
			s.faults.goneEvents.Add(1)
			w.send(ctx, statusEvent(apierrors.NewResourceExpired("injected: too old resource version")))
			return
		case r < 0.04 && bookmarks && pos > from:
			s.faults.bookmarks.Add(1)
			bm := &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{ResourceVersion: strconv.Itoa(pos)}}
			if !w.send(ctx, watch.Event{Type: watch.Bookmark, Object: bm}) {
				return
			}
		}
		e.Object = e.Object.DeepCopyObject()
		if !w.send(ctx, e) {
			return
		}
		pos++
	}
}

// recorder is a handler that mirrors what it is told and checks that each
// object's notifications arrive in resource-version order and agree with
// what it saw before.
type recorder struct {
	name string
	slow bool

	mu         sync.Mutex
	state      map[string]string // key -> resource version
	lastRV     map[string]int
	violations []string
	events     int
}

func newRecorder(name string, slow bool) *recorder {
	return &recorder{name: name, slow: slow, state: map[string]string{}, lastRV: map[string]int{}}
}

func rvOf(obj interface{}) (string, int) {
	cm := obj.(*v1.ConfigMap)
	n, _ := strconv.Atoi(cm.ResourceVersion)
	return cm.ResourceVersion, n
}

func (r *recorder) violate(format string, args ...interface{}) {
	if len(r.violations) < 20 {
		r.violations = append(r.violations, fmt.Sprintf(format, args...))
	}
}

// pause makes a slow handler slow (1 ms every 50 events), so that its
// notifications pile up; it decides nothing.
func (r *recorder) pause() {
	if r.slow && r.events%50 == 0 {
		time.Sleep(time.Millisecond)
	}
}

func (r *recorder) OnAdd(obj interface{}, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events++
	key, _ := MetaNamespaceKeyFunc(obj)
	rv, n := rvOf(obj)
	if prev, ok := r.state[key]; ok {
		r.violate("add of %s@%s while %s is present", key, rv, prev)
	}
	if n <= r.lastRV[key] {
		r.violate("add of %s@%d after having seen %d", key, n, r.lastRV[key])
	}
	r.state[key] = rv
	r.lastRV[key] = n
	r.pause()
}

func (r *recorder) OnUpdate(oldObj, newObj interface{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events++
	key, _ := MetaNamespaceKeyFunc(newObj)
	oldRV, oldN := rvOf(oldObj)
	newRV, newN := rvOf(newObj)
	if r.state[key] != oldRV {
		r.violate("update of %s from %s but last seen %q", key, oldRV, r.state[key])
	}
	if newN < oldN || newN < r.lastRV[key] {
		r.violate("update of %s went back from %d to %d", key, oldN, newN)
	}
	r.state[key] = newRV
	r.lastRV[key] = newN
	r.pause()
}

func (r *recorder) OnDelete(obj interface{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events++
	var key string
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		key = tomb.Key
		if tomb.Obj != nil {
			if rv, _ := rvOf(tomb.Obj); rv != r.state[key] {
				r.violate("tombstone of %s carries %s but last seen %q", key, rv, r.state[key])
			}
		}
	} else {
		key, _ = MetaNamespaceKeyFunc(obj)
		_, n := rvOf(obj)
		if n <= r.lastRV[key] {
			r.violate("delete of %s@%d after having seen %d", key, n, r.lastRV[key])
		}
		r.lastRV[key] = n
	}
	if _, ok := r.state[key]; !ok {
		r.violate("delete of absent %s", key)
	}
	delete(r.state, key)
	r.pause()
}

func (r *recorder) snapshot() (map[string]string, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]string, len(r.state))
	for k, v := range r.state {
		out[k] = v
	}
	return out, append([]string(nil), r.violations...)
}

func storeState(s Store) map[string]string {
	out := map[string]string{}
	for _, obj := range s.List() {
		key, _ := MetaNamespaceKeyFunc(obj)
		out[key], _ = rvOf(obj)
	}
	return out
}

func diffStates(want, got map[string]string) string {
	var b strings.Builder
	for k, v := range want {
		if got[k] != v {
			fmt.Fprintf(&b, " %s: want %q got %q;", k, v, got[k])
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, " %s: unexpected %q;", k, v)
		}
	}
	return b.String()
}

// useFastBackoff makes reflectors retry within milliseconds for the rest
// of the test.
func useFastBackoff(t *testing.T) {
	saved := defaultBackoff
	defaultBackoff = func() wait.Backoff {
		return wait.Backoff{Duration: time.Millisecond, Cap: 10 * time.Millisecond, Steps: 10, Factor: 2, Jitter: 1}
	}
	t.Cleanup(func() { defaultBackoff = saved })
}

// TestSharedInformerUnderFaults drives a SharedIndexInformer with three
// handlers against a server that, while thousands of seeded random changes
// happen, fails lists and watches, closes streams, injects error events,
// answers 410 Gone and sometimes refuses watch-list. At the end the cache
// and every handler must agree exactly with the server, and no handler may
// ever have seen an object's changes out of order.
func TestSharedInformerUnderFaults(t *testing.T) {
	useFastBackoff(t)
	for _, seed := range []uint64{1, 20260612} {
		t.Run(fmt.Sprintf("seed=%d", seed), inBubble(func(t *testing.T) {
			runFaultScenario(t, seed, 4000)
		}))
	}
}

func runFaultScenario(t *testing.T, seed uint64, operations int) {
	server := newFaultyServer(seed)
	informer := NewSharedIndexInformer(server, &v1.ConfigMap{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	var watchErrors atomic.Int64
	if err := informer.SetWatchErrorHandler(func(*Reflector, error) { watchErrors.Add(1) }); err != nil {
		t.Fatal(err)
	}
	early, slow, late := newRecorder("early", false), newRecorder("slow", true), newRecorder("late", false)
	earlyReg, err := informer.AddEventHandler(early)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := informer.AddEventHandler(slow); err != nil {
		t.Fatal(err)
	}

	// Some objects exist before the informer starts.
	ops := rand.New(rand.NewPCG(seed, 42))
	const namespaces, names = 3, 40
	present := map[string]*v1.ConfigMap{}
	mutate := func() {
		ns := fmt.Sprintf("ns-%d", ops.IntN(namespaces))
		name := fmt.Sprintf("cm-%d", ops.IntN(names))
		key := ns + "/" + name
		cm, exists := present[key]
		switch {
		case !exists:
			cm = &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string]string{"n": "0"}}
			present[key] = cm
			server.apply(watch.Added, cm)
		case ops.IntN(4) == 0:
			delete(present, key)
			server.apply(watch.Deleted, cm)
		default:
			n, _ := strconv.Atoi(cm.Data["n"])
			cm.Data["n"] = strconv.Itoa(n + 1)
			server.apply(watch.Modified, cm)
		}
	}
	for i := 0; i < 100; i++ {
		mutate()
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		informer.RunWithContext(ctx)
	}()
	if !WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("informer did not sync")
	}
	lateReg, err := informer.AddEventHandler(late)
	if err != nil {
		t.Fatal(err)
	}

	for i := 0; i < operations; i++ {
		mutate()
		if i%400 == 399 {
			server.compact(100)
		}
		if i%10 == 9 {
			// Lets the informer, in the bubble, run between the writes.
			time.Sleep(100 * time.Microsecond)
		}
	}

	// Let the informer catch up: a minute of the bubble's clock is far
	// more than the backoffs of its retries after the last faults, and
	// once its watch follows the final state nothing is left to happen.
	time.Sleep(time.Minute)
	synctest.Wait()
	want := server.finalState()
	cancel()
	<-done

	if d := diffStates(want, storeState(informer.GetStore())); d != "" {
		t.Errorf("cache differs from the server:%s", d)
	}
	for _, r := range []*recorder{early, slow, late} {
		got, violations := r.snapshot()
		if d := diffStates(want, got); d != "" {
			t.Errorf("handler %s differs from the server:%s", r.name, d)
		}
		for _, v := range violations {
			t.Errorf("handler %s: %s", r.name, v)
		}
	}
	if !earlyReg.HasSynced() || !lateReg.HasSynced() {
		t.Errorf("registrations not synced: early=%v late=%v", earlyReg.HasSynced(), lateReg.HasSynced())
	}
	f := &server.faults
	t.Logf("objects=%d listErrors=%d watchErrors=%d watchGone=%d watchListRejected=%d closed=%d errorEvents=%d goneEvents=%d tooOld=%d bookmarks=%d handlerErrors=%d",
		len(want), f.listErrors.Load(), f.watchErrors.Load(), f.watchGone.Load(), f.watchListRejected.Load(),
		f.closedStreams.Load(), f.errorEvents.Load(), f.goneEvents.Load(), f.tooOld.Load(), f.bookmarks.Load(), watchErrors.Load())
	if f.closedStreams.Load() == 0 || f.errorEvents.Load() == 0 || f.goneEvents.Load() == 0 {
		t.Errorf("the scenario injected too few faults to be meaningful")
	}
}
