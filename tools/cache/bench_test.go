package cache

import (
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// The same benchmarks, side by side with k8s.io/client-go, live in the
// separate bench module.

func benchPods(n, namespaces, rvOffset int) []*v1.Pod {
	pods := make([]*v1.Pod, n)
	for i := range pods {
		pods[i] = &v1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace:       "ns-" + strconv.Itoa(i%namespaces),
			Name:            "pod-" + strconv.Itoa(i),
			ResourceVersion: strconv.Itoa(rvOffset + i + 1),
		}}
	}
	return pods
}

func newBenchIndexer() Indexer {
	return NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
}

func BenchmarkIndexerAdd(b *testing.B) {
	const n = 10000
	pods := benchPods(n, 100, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		idx := newBenchIndexer()
		for _, p := range pods {
			if err := idx.Add(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/obj")
}

func BenchmarkIndexerUpdate(b *testing.B) {
	const n = 10000
	idx := newBenchIndexer()
	for _, p := range benchPods(n, 100, 0) {
		_ = idx.Add(p)
	}
	updates := benchPods(n, 100, n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := idx.Update(updates[i%n]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIndexerByIndex(b *testing.B) {
	idx := newBenchIndexer()
	for _, p := range benchPods(10000, 100, 0) {
		_ = idx.Add(p)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		objs, err := idx.ByIndex(NamespaceIndex, "ns-"+strconv.Itoa(i%100))
		if err != nil || len(objs) != 100 {
			b.Fatalf("ByIndex = %d, %v", len(objs), err)
		}
	}
}

func BenchmarkDeltaFIFOPushPop(b *testing.B) {
	pods := benchPods(1000, 10, 0)
	f := NewDeltaFIFOWithOptions(DeltaFIFOOptions{EmitDeltaTypeReplaced: true})
	noop := func(interface{}, bool) error { return nil }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := f.Add(pods[i%1000]); err != nil {
			b.Fatal(err)
		}
		if _, err := f.Pop(noop); err != nil {
			b.Fatal(err)
		}
	}
}

type countingHandler struct{ n atomic.Int64 }

func (h *countingHandler) OnAdd(interface{}, bool)   { h.n.Add(1) }
func (h *countingHandler) OnUpdate(_, _ interface{}) { h.n.Add(1) }
func (h *countingHandler) OnDelete(interface{})      { h.n.Add(1) }

// BenchmarkInformerWatchStream pushes b.N watch events through a shared
// informer with one handler.
func BenchmarkInformerWatchStream(b *testing.B) {
	const objects = 1000
	events := make([]watch.Event, b.N)
	for i := range events {
		t := watch.Modified
		if i < objects {
			t = watch.Added
		}
		p := benchPods(1, 1, i+1)[0]
		p.Name = "pod-" + strconv.Itoa(i%objects)
		events[i] = watch.Event{Type: t, Object: p}
	}
	fw := watch.NewFakeWithChanSize(1024, false)
	var watched atomic.Bool
	watchStarted := make(chan struct{})
	lw := &ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (kruntime.Object, error) {
			return &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "0"}}, nil
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			if watched.Swap(true) {
				return watch.NewFake(), nil
			}
			close(watchStarted)
			return fw, nil
		},
	}
	inf := NewSharedIndexInformer(ToListWatcherWithWatchListSemantics(lw, unsupportedClient{}), &v1.Pod{}, 0, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	h := &countingHandler{}
	_, _ = inf.AddEventHandler(h)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	WaitFor(ctx, "", inf.HasSyncedChecker(), channelChecker{name: "watch", ch: watchStarted})
	b.ReportAllocs()
	b.ResetTimer()
	for _, e := range events {
		fw.Action(e.Type, e.Object)
	}
	for h.n.Load() < int64(b.N) {
		runtime.Gosched()
	}
	b.StopTimer()
	cancel()
	<-done
}
