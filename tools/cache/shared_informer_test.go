package cache

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

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
func (l *eventLog) OnDelete(obj interface{})  { l.add("delete %s", name(obj)) }

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

func TestSharedInformerHandlersAndSync(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	source.Add(pod("ns", "b", "", nil))
	inf := NewSharedIndexInformer(source, &v1.Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})

	early := &eventLog{}
	reg, err := inf.AddEventHandler(early)
	if err != nil {
		t.Fatal(err)
	}
	if reg.HasSynced() {
		t.Fatal("registration synced before the informer ran")
	}
	stop := startInformer(t, inf)
	defer stop()

	if !WaitFor(context.Background(), "", inf.HasSyncedChecker(), reg.HasSyncedChecker()) {
		t.Fatal("WaitFor failed")
	}
	if !inf.HasSynced() || !reg.HasSynced() {
		t.Fatal("not synced after WaitFor")
	}
	if got := early.sortedSnapshot(); strings.Join(got, ";") != "add a initial=true;add b initial=true" {
		t.Errorf("early handler saw %v", got)
	}

	late := &eventLog{}
	lateReg, err := inf.AddEventHandler(late)
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "late handler sync", lateReg.HasSynced)
	if got := late.sortedSnapshot(); strings.Join(got, ";") != "add a initial=true;add b initial=true" {
		t.Errorf("late handler saw %v", got)
	}

	p := pod("ns", "a", "", map[string]string{"v": "2"})
	source.Modify(p)
	source.Delete(pod("ns", "b", "", nil))
	source.Add(pod("ns", "c", "", nil))
	for _, l := range []*eventLog{early, late} {
		waitUntil(t, "watch events", func() bool { return len(l.snapshot()) == 5 })
		if got := l.snapshot()[2:]; strings.Join(got, ";") != "update a;delete b;add c initial=false" {
			t.Errorf("events after sync = %v", got)
		}
	}
	if objs, _ := inf.GetIndexer().ByIndex(NamespaceIndex, "ns"); len(objs) != 2 {
		t.Errorf("indexer holds %d objects in ns", len(objs))
	}
	waitUntil(t, "last sync rv", func() bool { return inf.LastSyncResourceVersion() == "5" })
	if inf.GetController().LastSyncResourceVersion() != "5" || !inf.GetController().HasSynced() {
		t.Error("GetController view disagrees")
	}
}

func TestSharedInformerRelistDeletionIsTombstone(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	source.Add(pod("ns", "b", "", nil))
	inf := NewSharedInformer(source, &v1.Pod{}, 0)
	log := &eventLog{}
	reg, _ := inf.AddEventHandler(log)
	stop := startInformer(t, inf)
	defer stop()
	waitUntil(t, "sync", reg.HasSynced)
	// The deletion is never watched; only a relist can notice it.
	source.DeleteDropWatch(pod("ns", "b", "", nil))
	source.ResetWatch()
	waitUntil(t, "tombstone", func() bool {
		for _, e := range log.snapshot() {
			if e == "delete tombstone:ns/b" {
				return true
			}
		}
		return false
	})
	if _, ok, _ := inf.GetStore().GetByKey("ns/b"); ok {
		t.Error("ns/b still cached")
	}
}

// blockingHandler blocks in OnAdd until released.
type blockingHandler struct {
	release chan struct{}
}

func (b blockingHandler) OnAdd(interface{}, bool)   { <-b.release }
func (b blockingHandler) OnUpdate(_, _ interface{}) {}
func (b blockingHandler) OnDelete(interface{})      {}

func TestSlowHandlerDoesNotBlockOthers(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	inf := NewSharedInformer(source, &v1.Pod{}, 0)
	slow := blockingHandler{release: make(chan struct{})}
	fast := &eventLog{}
	_, _ = inf.AddEventHandler(slow)
	_, _ = inf.AddEventHandler(fast)
	stop := startInformer(t, inf)
	defer stop()
	// Runs before stop: the informer waits for its handlers to return.
	defer close(slow.release)
	waitUntil(t, "sync", inf.HasSynced)
	for i := 0; i < 2000; i++ {
		source.Add(pod("ns", fmt.Sprintf("p%d", i), "", nil))
	}
	waitUntil(t, "fast handler", func() bool { return len(fast.snapshot()) == 2000 })
}

func TestRemoveAndShutDownEventHandler(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	inf := NewSharedInformer(source, &v1.Pod{}, 0)
	kept, removed := &eventLog{}, &eventLog{}
	_, _ = inf.AddEventHandler(kept)
	reg, _ := inf.AddEventHandler(removed)
	stop := startInformer(t, inf)
	defer stop()
	waitUntil(t, "sync", inf.HasSynced)
	source.Add(pod("ns", "a", "", nil))
	waitUntil(t, "first event", func() bool { return len(removed.snapshot()) == 1 })
	if err := ShutDownEventHandler(inf, reg); err != nil {
		t.Fatal(err)
	}
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Fatalf("second removal must be a no-op: %v", err)
	}
	source.Add(pod("ns", "b", "", nil))
	waitUntil(t, "kept handler", func() bool { return len(kept.snapshot()) == 2 })
	if n := len(removed.snapshot()); n != 1 {
		t.Errorf("removed handler got %d events", n)
	}
	if err := inf.RemoveEventHandler(struct {
		ResourceEventHandlerRegistration
	}{}); err == nil {
		t.Error("foreign registration accepted")
	}
}

func TestSharedInformerPerHandlerResync(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	inf := NewSharedInformer(source, &v1.Pod{}, time.Second)
	syncing, quiet := &eventLog{}, &eventLog{}
	_, _ = inf.AddEventHandlerWithResyncPeriod(syncing, time.Second)
	_, _ = inf.AddEventHandlerWithOptions(quiet, HandlerOptions{ResyncPeriod: new(time.Duration)})
	stop := startInformer(t, inf)
	defer stop()
	waitUntil(t, "resync", func() bool {
		for _, e := range syncing.snapshot() {
			if e == "update a" {
				return true
			}
		}
		return false
	})
	for _, e := range quiet.snapshot() {
		if strings.HasPrefix(e, "update") {
			t.Errorf("handler without resync got %q", e)
		}
	}
}

func TestSharedInformerTransformAndSettersAfterStart(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", map[string]string{"big": "label"}))
	inf := NewSharedInformer(source, &v1.Pod{}, 0)
	if err := inf.SetTransform(func(obj interface{}) (interface{}, error) {
		p := obj.(*v1.Pod)
		p.Labels = nil
		return p, nil
	}); err != nil {
		t.Fatal(err)
	}
	stop := startInformer(t, inf)
	waitUntil(t, "sync", inf.HasSynced)
	obj, _, _ := inf.GetStore().GetByKey("ns/a")
	if obj.(*v1.Pod).Labels != nil {
		t.Error("transform not applied")
	}
	if err := inf.SetTransform(nil); err == nil {
		t.Error("SetTransform after start must fail")
	}
	if err := inf.SetWatchErrorHandler(func(*Reflector, error) {}); err == nil {
		t.Error("SetWatchErrorHandler after start must fail")
	}
	stop()
	if !inf.IsStopped() {
		t.Error("IsStopped false after stop")
	}
	if _, err := inf.AddEventHandler(&eventLog{}); err == nil {
		t.Error("adding a handler to a stopped informer must fail")
	}
}

func TestWaitForCacheSync(t *testing.T) {
	synced := false
	var mu sync.Mutex
	go func() {
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		synced = true
		mu.Unlock()
	}()
	isSynced := func() bool { mu.Lock(); defer mu.Unlock(); return synced }
	if !WaitForNamedCacheSync("test", make(chan struct{}), isSynced) {
		t.Error("WaitForNamedCacheSync failed")
	}
	stopped := make(chan struct{})
	close(stopped)
	if WaitForCacheSync(stopped, func() bool { return false }) {
		t.Error("WaitForCacheSync succeeded with a closed stop channel")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if WaitForNamedCacheSyncWithContext(ctx, func() bool { return false }) {
		t.Error("WaitForNamedCacheSyncWithContext succeeded with a canceled context")
	}
	if WaitFor(ctx, "never", channelChecker{name: "never", ch: make(chan struct{})}) {
		t.Error("WaitFor succeeded with a canceled context")
	}
}

func TestNewInformerDeliversEvents(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	log := &eventLog{}
	store, ctrl := NewTransformingIndexerInformer(source, &v1.Pod{}, 0, log, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ctrl.RunWithContext(ctx)
	waitUntil(t, "sync", ctrl.HasSynced)
	source.Modify(pod("ns", "a", "", map[string]string{"x": "y"}))
	source.Delete(pod("ns", "a", "", nil))
	waitUntil(t, "events", func() bool { return len(log.snapshot()) == 3 })
	if got := strings.Join(log.snapshot(), ";"); got != "add a initial=true;update a;delete a" {
		t.Errorf("events = %s", got)
	}
	if len(store.List()) != 0 {
		t.Error("store not empty after delete")
	}
}

func TestFilteringResourceEventHandler(t *testing.T) {
	tests := []struct {
		name     string
		old, new *v1.Pod
		want     string
	}{
		{"both pass", pod("", "a", "", map[string]string{"ok": "1"}), pod("", "a", "", map[string]string{"ok": "1"}), "update a"},
		{"starts passing", pod("", "a", "", nil), pod("", "a", "", map[string]string{"ok": "1"}), "add a initial=false"},
		{"stops passing", pod("", "a", "", map[string]string{"ok": "1"}), pod("", "a", "", nil), "delete a"},
		{"neither", pod("", "a", "", nil), pod("", "a", "", nil), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := &eventLog{}
			h := FilteringResourceEventHandler{
				FilterFunc: func(obj interface{}) bool { return obj.(*v1.Pod).Labels["ok"] == "1" },
				Handler:    log,
			}
			h.OnUpdate(tc.old, tc.new)
			if got := strings.Join(log.snapshot(), ";"); got != tc.want {
				t.Errorf("got %q want %q", got, tc.want)
			}
		})
	}
}

func TestResourceEventHandlerFuncsNilSafe(t *testing.T) {
	var h ResourceEventHandler = ResourceEventHandlerFuncs{}
	h.OnAdd(pod("", "a", "", nil), false)
	h.OnUpdate(nil, nil)
	h.OnDelete(nil)
	added := false
	h = ResourceEventHandlerDetailedFuncs{AddFunc: func(_ interface{}, initial bool) { added = initial }}
	h.OnAdd(nil, true)
	if !added {
		t.Error("detailed AddFunc not called with isInInitialList")
	}
}

func TestTypedInformer(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	inf := NewTypedSharedIndexInformer[*v1.Pod](NewSharedIndexInformer(source, &v1.Pod{}, 0, Indexers{}))
	if err := inf.AddTypedIndexers(TypedIndexers[*v1.Pod]{"name": func(p *v1.Pod) ([]string, error) { return []string{p.Name}, nil }}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var deleted []DeletedObject[*v1.Pod]
	added := 0
	reg, err := inf.AddTypedEventHandler(TypedResourceEventHandlerFuncs[*v1.Pod]{
		AddFunc:    func(*v1.Pod) { mu.Lock(); added++; mu.Unlock() },
		DeleteFunc: func(d DeletedObject[*v1.Pod]) { mu.Lock(); deleted = append(deleted, d); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddTypedEventHandler(TypedResourceEventHandlerFuncs[*v1.Pod]{}, HandlerOptions{}, HandlerOptions{}); err == nil {
		t.Error("two HandlerOptions accepted")
	}
	stop := startInformer(t, inf)
	defer stop()
	waitUntil(t, "sync", reg.HasSynced)
	pods, err := inf.GetTypedIndexer().ByTypedIndex("name", "a")
	if err != nil || len(pods) != 1 || pods[0].Name != "a" {
		t.Errorf("ByTypedIndex = %v %v", pods, err)
	}
	source.Delete(pod("ns", "a", "", nil))
	waitUntil(t, "delete", func() bool { mu.Lock(); defer mu.Unlock(); return len(deleted) == 1 })
	d := deleted[0]
	if d.GetKey() != "ns/a" || d.GetName() != "a" || d.GetNamespace() != "ns" || d.FinalStateUnknown != nil {
		t.Errorf("DeletedObject = %+v", d)
	}
}

func TestDeletedObjectTombstone(t *testing.T) {
	d, ok := toDeletedObject[*v1.Pod](DeletedFinalStateUnknown{Key: "ns/x"})
	if !ok || d.OptionalObj != nil || d.GetKey() != "ns/x" || d.GetObjectName() != NewObjectName("ns", "x") {
		t.Errorf("tombstone conversion: %+v", d)
	}
	d, _ = toDeletedObject[*v1.Pod](DeletedFinalStateUnknown{Key: "a/b/c"})
	if d.GetName() != "a/b/c" {
		t.Errorf("invalid key must become the name, got %q", d.GetName())
	}
}

func TestGenericListerAndListAll(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_ = idx.Add(pod("a", "x", "1", map[string]string{"app": "web"}))
	_ = idx.Add(pod("a", "y", "1", map[string]string{"app": "db"}))
	_ = idx.Add(pod("b", "z", "1", map[string]string{"app": "web"}))
	l := NewGenericLister(idx, v1.Resource("pods"))
	web, _ := labelsSelector("app=web")
	objs, err := l.List(web)
	if err != nil || len(objs) != 2 {
		t.Errorf("List(app=web) = %d %v", len(objs), err)
	}
	objs, err = l.ByNamespace("a").List(web)
	if err != nil || len(objs) != 1 {
		t.Errorf("ByNamespace(a).List(app=web) = %d %v", len(objs), err)
	}
	if _, err := l.ByNamespace("a").Get("y"); err != nil {
		t.Errorf("Get(a/y): %v", err)
	}
	if _, err := l.Get("a/missing"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("Get(missing) = %v", err)
	}
	// Without a namespace index ListAllByNamespace scans.
	plain := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	_ = plain.Add(pod("a", "x", "1", nil))
	_ = plain.Add(pod("b", "z", "1", nil))
	n := 0
	if err := ListAllByNamespace(plain, "a", everything(), func(interface{}) { n++ }); err != nil || n != 1 {
		t.Errorf("ListAllByNamespace without index: n=%d err=%v", n, err)
	}
}

var _ = metav1.ObjectMeta{}
