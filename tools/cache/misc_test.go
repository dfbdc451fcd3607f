package cache

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	testingclock "k8s.io/utils/clock/testing"
)

func TestTTLStoreExpires(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	deleted := make(chan string, 10)
	store := NewFakeExpirationStore(MetaNamespaceKeyFunc, deleted, &TTLPolicy{TTL: time.Minute, Clock: clk}, clk)
	_ = store.Add(pod("ns", "old", "1", nil))
	clk.Step(30 * time.Second)
	_ = store.Add(pod("ns", "new", "2", nil))
	clk.Step(45 * time.Second)
	if _, ok, _ := store.GetByKey("ns/old"); ok {
		t.Error("expired entry returned")
	}
	if key := <-deleted; key != "ns/old" {
		t.Errorf("deleted key = %q", key)
	}
	if objs := store.List(); len(objs) != 1 || objs[0].(*v1.Pod).Name != "new" {
		t.Errorf("List = %v", objs)
	}
	if keys := store.ListKeys(); len(keys) != 1 {
		t.Errorf("ListKeys = %v", keys)
	}
	_ = store.Replace([]interface{}{pod("ns", "r", "3", nil)}, "3")
	if store.LastStoreSyncResourceVersion() != "3" {
		t.Errorf("rv = %q", store.LastStoreSyncResourceVersion())
	}
	if obj, ok, _ := store.Get(pod("ns", "r", "", nil)); !ok || obj.(*v1.Pod).ResourceVersion != "3" {
		t.Errorf("Get after Replace = %v %v", obj, ok)
	}
}

func TestTTLPolicyZeroNeverExpires(t *testing.T) {
	p := &TTLPolicy{TTL: 0, Clock: testingclock.NewFakeClock(time.Now())}
	if p.IsExpired(&TimestampedEntry{Timestamp: time.Unix(0, 0)}) {
		t.Error("TTL 0 must never expire")
	}
	store := NewTTLStore(MetaNamespaceKeyFunc, time.Hour)
	_ = store.Add(pod("ns", "a", "1", nil))
	if _, ok, _ := store.GetByKey("ns/a"); !ok {
		t.Error("fresh entry missing")
	}
}

func TestFakeExpirationPolicy(t *testing.T) {
	p := &FakeExpirationPolicy{
		NeverExpire:     sets.New("ns/keep"),
		RetrieveKeyFunc: func(obj interface{}) (string, error) { return MetaNamespaceKeyFunc(obj.(*TimestampedEntry).Obj) },
	}
	store := NewExpirationStore(MetaNamespaceKeyFunc, p)
	_ = store.Add(pod("ns", "keep", "1", nil))
	_ = store.Add(pod("ns", "drop", "1", nil))
	if keys := keysOf(t, store.List()); strings.Join(keys, ",") != "ns/keep" {
		t.Errorf("List = %v", keys)
	}
}

func TestUndeltaStorePushesSnapshots(t *testing.T) {
	var mu sync.Mutex
	var pushes []int
	u := NewUndeltaStore(func(items []interface{}) { mu.Lock(); pushes = append(pushes, len(items)); mu.Unlock() }, MetaNamespaceKeyFunc)
	_ = u.Add(pod("ns", "a", "1", nil))
	_ = u.Add(pod("ns", "b", "1", nil))
	_ = u.Update(pod("ns", "a", "2", nil))
	_ = u.Delete(pod("ns", "a", "3", nil))
	_ = u.Replace([]interface{}{pod("ns", "x", "1", nil), pod("ns", "y", "1", nil), pod("ns", "z", "1", nil)}, "4")
	if got := pushes; len(got) != 5 || got[0] != 1 || got[1] != 2 || got[2] != 2 || got[3] != 1 || got[4] != 3 {
		t.Errorf("pushes = %v", got)
	}
}

func TestFakeCustomStore(t *testing.T) {
	calls := []string{}
	s := &FakeCustomStore{
		AddFunc:      func(interface{}) error { calls = append(calls, "add"); return nil },
		BookmarkFunc: func(rv string) { calls = append(calls, "bookmark "+rv) },
	}
	_ = s.Add(nil)
	s.Bookmark("7")
	_ = s.Update(nil) // unset: no-op
	if strings.Join(calls, ";") != "add;bookmark 7" {
		t.Errorf("calls = %v", calls)
	}
	if s.List() != nil || s.LastStoreSyncResourceVersion() != "" {
		t.Error("unset funcs must return zero values")
	}
}

func TestMutationCache(t *testing.T) {
	backing := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_ = backing.Add(pod("ns", "a", "5", nil))
	mc := NewIntegerResourceVersionMutationCacheWithOptions(klog.Background(), backing, MutationCacheOptions{Indexer: backing, IncludeAdds: true, TTL: time.Minute})

	mc.Mutation(pod("ns", "a", "7", nil)) // newer than the store
	obj, ok, _ := mc.GetByKey("ns/a")
	if !ok || obj.(*v1.Pod).ResourceVersion != "7" {
		t.Errorf("GetByKey = %v", obj)
	}
	mc.Mutation(pod("ns", "new", "8", nil)) // not in the store at all
	if _, ok, _ := mc.GetByKey("ns/new"); !ok {
		t.Error("IncludeAdds mutation not returned")
	}
	objs, err := mc.ByIndex(NamespaceIndex, "ns")
	if err != nil || len(objs) != 2 {
		t.Errorf("ByIndex = %v %v", objs, err)
	}
	// The informer catches up: the store's version wins again.
	_ = backing.Update(pod("ns", "a", "9", nil))
	mc.OnAddOrUpdate(pod("ns", "a", "9", nil))
	obj, _, _ = mc.GetByKey("ns/a")
	if obj.(*v1.Pod).ResourceVersion != "9" {
		t.Errorf("after catch-up got rv %s", obj.(*v1.Pod).ResourceVersion)
	}
	mc.OnDelete(pod("ns", "new", "10", nil))
	if _, ok, _ := mc.GetByKey("ns/new"); ok {
		t.Error("mutation survived OnDelete")
	}

	noAdds := NewIntegerResourceVersionMutationCache(klog.Background(), backing, nil, time.Minute, false)
	noAdds.Mutation(pod("ns", "ghost", "1", nil))
	if _, ok, _ := noAdds.GetByKey("ns/ghost"); ok {
		t.Error("mutation of an absent object returned without IncludeAdds")
	}
	if _, err := noAdds.ByIndex(NamespaceIndex, "ns"); err == nil {
		t.Error("ByIndex without indexer must fail")
	}
}

func TestMutationCacheBounded(t *testing.T) {
	backing := NewStore(MetaNamespaceKeyFunc)
	mc := NewIntegerResourceVersionMutationCacheWithOptions(klog.Background(), backing, MutationCacheOptions{IncludeAdds: true, MaxCacheSize: 2})
	mc.Mutation(pod("ns", "a", "1", nil))
	mc.Mutation(pod("ns", "b", "1", nil))
	mc.Mutation(pod("ns", "c", "1", nil))
	if _, ok, _ := mc.GetByKey("ns/a"); ok {
		t.Error("least recently used entry not evicted")
	}
	if _, ok, _ := mc.GetByKey("ns/c"); !ok {
		t.Error("newest entry missing")
	}
}

func TestMutationDetectorFindsMutation(t *testing.T) {
	d := &cacheMutationDetector{name: "test", period: time.Hour, retainDuration: time.Hour}
	var failures []string
	d.failureFunc = func(msg string) { failures = append(failures, msg) }
	p := pod("ns", "a", "1", nil)
	d.AddObject(p)
	d.AddObject("not an object")
	d.CompareObjects()
	if len(failures) != 0 {
		t.Fatalf("false positive: %v", failures)
	}
	p.Labels = map[string]string{"mutated": "yes"}
	d.CompareObjects()
	if len(failures) != 1 {
		t.Errorf("mutation not detected: %v", failures)
	}
	if _, ok := NewCacheMutationDetector("x").(noopMutationDetector); !ok && !mutationDetectionEnabled {
		t.Error("detector enabled without KUBE_CACHE_MUTATION_DETECTOR")
	}
}

// contextOnlyLW implements only the WithContext interfaces.
type contextOnlyLW struct{ calls []string }

func (c *contextOnlyLW) List(metav1.ListOptions) (runtime.Object, error) {
	c.calls = append(c.calls, "List")
	return &v1.PodList{}, nil
}
func (c *contextOnlyLW) Watch(metav1.ListOptions) (watch.Interface, error) {
	c.calls = append(c.calls, "Watch")
	return watch.NewFake(), nil
}

func TestListerWatcherWrappers(t *testing.T) {
	lw := &contextOnlyLW{}
	wrapped := ToListerWatcherWithContext(lw)
	_, _ = wrapped.ListWithContext(context.Background(), metav1.ListOptions{})
	_, _ = wrapped.WatchWithContext(context.Background(), metav1.ListOptions{})
	if strings.Join(lw.calls, ",") != "List,Watch" {
		t.Errorf("calls = %v", lw.calls)
	}
	native := &ListWatch{}
	if got := ToListerWatcherWithContext(native); got != ListerWatcherWithContext(native) {
		t.Error("a ListWatch must be returned as is")
	}

	var seen []string
	full := &ListWatch{
		ListFunc: func(metav1.ListOptions) (runtime.Object, error) { seen = append(seen, "ListFunc"); return nil, nil },
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			seen = append(seen, "ListWithContextFunc")
			return nil, nil
		},
		WatchFunc: func(metav1.ListOptions) (watch.Interface, error) { seen = append(seen, "WatchFunc"); return nil, nil },
	}
	_, _ = full.List(metav1.ListOptions{})
	_, _ = full.ListWithContext(context.Background(), metav1.ListOptions{})
	_, _ = full.WatchWithContext(context.Background(), metav1.ListOptions{}) // falls back
	if strings.Join(seen, ",") != "ListFunc,ListWithContextFunc,WatchFunc" {
		t.Errorf("dispatch = %v", seen)
	}
}

func TestInformerNames(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	n, err := NewInformerName("controller-a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewInformerName("controller-a"); err == nil {
		t.Error("duplicate name accepted")
	}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	first, second := n.WithResource(gvr), n.WithResource(gvr)
	if !first.Reserved() || second.Reserved() {
		t.Errorf("Reserved: first=%v second=%v", first.Reserved(), second.Reserved())
	}
	if first.Name() != "controller-a" || first.GroupVersionResource() != gvr {
		t.Errorf("identity = %q %v", first.Name(), first.GroupVersionResource())
	}
	n.Release()
	if first.Reserved() {
		t.Error("still reserved after Release")
	}
	if _, err := NewInformerName("controller-a"); err != nil {
		t.Errorf("released name not reusable: %v", err)
	}
	var zero InformerNameAndResource
	if zero.Reserved() || zero.Name() != "" {
		t.Error("zero identity must be unreserved and unnamed")
	}
}

// recordingMetrics counts queue gauge updates.
type recordingMetrics struct {
	mu     sync.Mutex
	queued []float64
}

type gaugeFunc func(float64)

func (g gaugeFunc) Set(v float64)     { g(v) }
func (g gaugeFunc) Observe(v float64) {}

func (m *recordingMetrics) NewQueuedItemMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(v float64) { m.mu.Lock(); m.queued = append(m.queued, v); m.mu.Unlock() })
}
func (m *recordingMetrics) NewProcessingLatencyMetric(InformerNameAndResource) HistogramMetric {
	return gaugeFunc(func(float64) {})
}
func (m *recordingMetrics) NewStoreResourceVersionMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(float64) {})
}

func TestRealFIFOMetrics(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	n, _ := NewInformerName("metrics")
	m := &recordingMetrics{}
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Identifier: n.WithResource(schema.GroupVersionResource{Resource: "pods"}), MetricsProvider: m})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "1", nil))
	if len(m.queued) != 2 || m.queued[1] != 2 {
		t.Errorf("queued gauge = %v", m.queued)
	}
	if f.Name() != "metrics" {
		t.Errorf("Name() = %q", f.Name())
	}
}
