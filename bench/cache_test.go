package bench

import (
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	kc "github.com/kubeclient/client-go/tools/cache"
	cg "k8s.io/client-go/tools/cache"
)

// The tools/cache benchmarks run each body once per implementation, as
// sub-benchmarks named "client-go" and "kubeclient". The bodies use the
// small interfaces below, which both implementations satisfy.

type benchIndexer interface {
	Add(obj interface{}) error
	Update(obj interface{}) error
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	ListKeys() []string
}

type benchFIFO interface {
	Add(obj interface{}) error
	pop() (interface{}, error)
}

type benchHandler struct {
	events atomic.Int64
}

func (h *benchHandler) OnAdd(interface{}, bool)   { h.events.Add(1) }
func (h *benchHandler) OnUpdate(_, _ interface{}) { h.events.Add(1) }
func (h *benchHandler) OnDelete(interface{})      { h.events.Add(1) }

// benchInformer is the part of a shared informer the benchmarks drive.
type benchInformer struct {
	run       func(ctx context.Context)
	hasSynced func() bool
	keys      func() []string
}

type cacheImpl struct {
	name       string
	newIndexer func() benchIndexer
	newFIFO    func() benchFIFO
	// newInformer builds a shared informer over list and watch with one
	// handler.
	newInformer func(list func() (kruntime.Object, error), watchFn func() (watch.Interface, error), h *benchHandler) benchInformer
}

type kcFIFO struct{ *kc.DeltaFIFO }

func (f kcFIFO) pop() (interface{}, error) {
	return f.Pop(func(interface{}, bool) error { return nil })
}

type cgFIFO struct{ *cg.DeltaFIFO }

func (f cgFIFO) pop() (interface{}, error) {
	return f.Pop(func(interface{}, bool) error { return nil })
}

var cacheImpls = []cacheImpl{
	{
		name: "client-go",
		newIndexer: func() benchIndexer {
			return cg.NewIndexer(cg.MetaNamespaceKeyFunc, cg.Indexers{cg.NamespaceIndex: cg.MetaNamespaceIndexFunc})
		},
		newFIFO: func() benchFIFO {
			return cgFIFO{cg.NewDeltaFIFOWithOptions(cg.DeltaFIFOOptions{KeyFunction: cg.MetaNamespaceKeyFunc, EmitDeltaTypeReplaced: true})}
		},
		newInformer: func(list func() (kruntime.Object, error), watchFn func() (watch.Interface, error), h *benchHandler) benchInformer {
			lw := &cg.ListWatch{
				ListWithContextFunc:  func(context.Context, metav1.ListOptions) (kruntime.Object, error) { return list() },
				WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return watchFn() },
			}
			inf := cg.NewSharedIndexInformer(cg.ToListWatcherWithWatchListSemantics(lw, noWatchList{}), &v1.Pod{}, 0,
				cg.Indexers{cg.NamespaceIndex: cg.MetaNamespaceIndexFunc})
			_, _ = inf.AddEventHandler(h)
			return benchInformer{run: inf.RunWithContext, hasSynced: inf.HasSynced, keys: inf.GetStore().ListKeys}
		},
	},
	{
		name: "kubeclient",
		newIndexer: func() benchIndexer {
			return kc.NewIndexer(kc.MetaNamespaceKeyFunc, kc.Indexers{kc.NamespaceIndex: kc.MetaNamespaceIndexFunc})
		},
		newFIFO: func() benchFIFO {
			return kcFIFO{kc.NewDeltaFIFOWithOptions(kc.DeltaFIFOOptions{KeyFunction: kc.MetaNamespaceKeyFunc, EmitDeltaTypeReplaced: true})}
		},
		newInformer: func(list func() (kruntime.Object, error), watchFn func() (watch.Interface, error), h *benchHandler) benchInformer {
			lw := &kc.ListWatch{
				ListWithContextFunc:  func(context.Context, metav1.ListOptions) (kruntime.Object, error) { return list() },
				WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return watchFn() },
			}
			inf := kc.NewSharedIndexInformer(kc.ToListWatcherWithWatchListSemantics(lw, noWatchList{}), &v1.Pod{}, 0,
				kc.Indexers{kc.NamespaceIndex: kc.MetaNamespaceIndexFunc})
			_, _ = inf.AddEventHandler(h)
			return benchInformer{run: inf.RunWithContext, hasSynced: inf.HasSynced, keys: inf.GetStore().ListKeys}
		},
	},
}

// noWatchList makes both informers use plain list+watch, so they do the
// same work.
type noWatchList struct{}

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

func benchPod(i, namespaces int, rv int) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:       "ns-" + strconv.Itoa(i%namespaces),
		Name:            "pod-" + strconv.Itoa(i),
		ResourceVersion: strconv.Itoa(rv),
		Labels:          map[string]string{"app": "bench"},
	}}
}

func makePods(n, namespaces int) []*v1.Pod {
	pods := make([]*v1.Pod, n)
	for i := range pods {
		pods[i] = benchPod(i, namespaces, i+1)
	}
	return pods
}

// BenchmarkCacheIndexerAdd fills a fresh Indexer (with a namespace index)
// with 10000 prepared objects per op. B/op is what the Indexer allocates for
// them; ns/obj and B/obj divide by the object count.
func BenchmarkCacheIndexerAdd(b *testing.B) {
	const n = 10000
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			pods := makePods(n, 100)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				idx := impl.newIndexer()
				for _, p := range pods {
					if err := idx.Add(p); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/obj")
		})
	}
}

// BenchmarkCacheIndexerUpdate replaces existing objects with newer versions.
func BenchmarkCacheIndexerUpdate(b *testing.B) {
	const n = 10000
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			idx := impl.newIndexer()
			for _, p := range makePods(n, 100) {
				_ = idx.Add(p)
			}
			updates := make([]*v1.Pod, n)
			for i := range updates {
				updates[i] = benchPod(i, 100, n+i+1)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := idx.Update(updates[i%n]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCacheIndexerByIndex looks up one namespace of 100 objects among
// 10000.
func BenchmarkCacheIndexerByIndex(b *testing.B) {
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			idx := impl.newIndexer()
			for _, p := range makePods(10000, 100) {
				_ = idx.Add(p)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				objs, err := idx.ByIndex(kc.NamespaceIndex, "ns-"+strconv.Itoa(i%100))
				if err != nil || len(objs) != 100 {
					b.Fatalf("ByIndex = %d, %v", len(objs), err)
				}
			}
		})
	}
}

// BenchmarkCacheMemoryPerObject measures the live heap an Indexer with a
// namespace index keeps per cached object, the objects themselves excluded.
func BenchmarkCacheMemoryPerObject(b *testing.B) {
	const n = 20000
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			pods := makePods(n, 100)
			var total float64
			for i := 0; i < b.N; i++ {
				before := liveHeap()
				idx := impl.newIndexer()
				for _, p := range pods {
					_ = idx.Add(p)
				}
				total += float64(liveHeap()-before) / n
				runtime.KeepAlive(idx)
			}
			b.ReportMetric(total/float64(b.N), "B/cached-obj")
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkCacheDeltaFIFOPushPop pushes an object and pops it again.
func BenchmarkCacheDeltaFIFOPushPop(b *testing.B) {
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			pods := makePods(1000, 10)
			f := impl.newFIFO()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := f.Add(pods[i%1000]); err != nil {
					b.Fatal(err)
				}
				if _, err := f.pop(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCacheDeltaFIFOBurst pushes 1000 objects, then pops them all.
func BenchmarkCacheDeltaFIFOBurst(b *testing.B) {
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			pods := makePods(1000, 10)
			f := impl.newFIFO()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, p := range pods {
					_ = f.Add(p)
				}
				for range pods {
					if _, err := f.pop(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkCacheInformerWatchStream feeds b.N watch events (adds, then
// updates, over 1000 objects) through a shared informer with one handler
// and waits until the handler has seen them all.
func BenchmarkCacheInformerWatchStream(b *testing.B) {
	const objects = 1000
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			events := make([]watch.Event, b.N)
			for i := range events {
				t := watch.Modified
				if i < objects {
					t = watch.Added
				}
				events[i] = watch.Event{Type: t, Object: benchPod(i%objects, 10, i+2)}
			}
			fw := watch.NewFakeWithChanSize(1024, false)
			watched := make(chan struct{})
			list := func() (kruntime.Object, error) {
				return &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, nil
			}
			watchFn := func() (watch.Interface, error) {
				select {
				case <-watched:
					return watch.NewFake(), nil // later watches stay idle
				default:
					close(watched)
					return fw, nil
				}
			}
			h := &benchHandler{}
			inf := impl.newInformer(list, watchFn, h)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { defer close(done); inf.run(ctx) }()
			for !inf.hasSynced() {
				time.Sleep(time.Millisecond)
			}
			<-watched
			b.ReportAllocs()
			b.ResetTimer()
			for _, e := range events {
				fw.Action(e.Type, e.Object)
			}
			for h.events.Load() < int64(b.N) {
				runtime.Gosched()
			}
			b.StopTimer()
			cancel()
			<-done
		})
	}
}

// BenchmarkCacheInformerInitialList measures an informer's initial list of
// 10000 objects until its handler has seen every one.
func BenchmarkCacheInformerInitialList(b *testing.B) {
	const n = 10000
	pods := makePods(n, 100)
	list := &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
	for _, p := range pods {
		list.Items = append(list.Items, *p)
	}
	for _, impl := range cacheImpls {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				h := &benchHandler{}
				inf := impl.newInformer(
					func() (kruntime.Object, error) { return list.DeepCopy(), nil },
					func() (watch.Interface, error) { return watch.NewFake(), nil }, h)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); inf.run(ctx) }()
				for h.events.Load() < n {
					runtime.Gosched()
				}
				cancel()
				<-done
			}
		})
	}
}
