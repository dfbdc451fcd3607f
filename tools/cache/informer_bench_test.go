package cache

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// These benchmarks measure the informer between the decoder and the
// handler: the reflector's apply step, the queue, the indexer and the
// processor. A channel-fed watch delivers realistic pods decoded ahead of
// time, so no decoding and no HTTP is measured.

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
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (kruntime.Object, error) {
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

// eachSharingMode runs bench with cache sharing off and on.
func eachSharingMode(b *testing.B, bench func(b *testing.B)) {
	for _, on := range []bool{false, true} {
		restore := fastpath.CacheDedup.Set(on)
		b.Run(fmt.Sprintf("share=%v", on), bench)
		restore()
	}
}

// BenchmarkInformerModifiedPods reports the informer's cost per MODIFIED
// event of a realistic pod, with 1000 pods cached. One op is one event.
func BenchmarkInformerModifiedPods(b *testing.B) {
	eachSharingMode(b, benchmarkModifiedPods)
}

func benchmarkModifiedPods(b *testing.B) {
	const cached, batch = 1000, 1000
	rig := startPodInformer(b, realisticPodList(b, cached, 1))
	defer rig.shutdown()
	pods := make([]*v1.Pod, batch)
	rv := 2
	var cpu time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for sent := 0; sent < b.N; {
		b.StopTimer()
		n := min(batch, b.N-sent)
		for i := range n {
			pods[i] = realisticPod(b, (sent+i)%cached, rv)
			rv++
		}
		runtime.GC() // decoding's garbage is not the informer's
		b.StartTimer()
		start := processCPUTime()
		rig.modify(pods[:n])
		cpu += processCPUTime() - start
		sent += n
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/event")
}

// BenchmarkInformerCacheHeap reports the live heap per cached realistic
// pod, after GC, of an informer that listed 10,000 of them.
func BenchmarkInformerCacheHeap(b *testing.B) {
	eachSharingMode(b, benchmarkCacheHeap)
}

func benchmarkCacheHeap(b *testing.B) {
	const n = 10000
	for range b.N {
		before := liveHeap()
		rig := startPodInformer(b, realisticPodList(b, n, 1))
		after := liveHeap()
		b.ReportMetric(float64(after-before)/n, "B/pod")
		runtime.KeepAlive(rig.inf.GetStore())
		rig.shutdown()
	}
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkSharedUnstructuredHeap reports the live heap per realistic pod
// decoded as unstructured (as dynamic informers cache them), 10,000 of
// them held after each went through the cache's sharing.
func BenchmarkSharedUnstructuredHeap(b *testing.B) {
	eachSharingMode(b, func(b *testing.B) {
		const n = 10000
		for range b.N {
			before := liveHeap()
			pods := make([]*unstructured.Unstructured, n)
			for i := range pods {
				u := &unstructured.Unstructured{}
				if err := u.UnmarshalJSON(realisticPodBytes(i, 1)); err != nil {
					b.Fatal(err)
				}
				pods[i] = newCacheSharing(nil).publish(u).(*unstructured.Unstructured)
			}
			after := liveHeap()
			b.ReportMetric(float64(after-before)/n, "B/pod")
			runtime.KeepAlive(pods)
		}
	})
}
