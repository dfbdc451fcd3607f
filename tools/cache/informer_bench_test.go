package cache

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// These benchmarks measure the informer between the decoder and the
// handler: the reflector's apply step, the queue, the indexer and the
// processor. A channel-fed watch delivers realistic pods decoded ahead of
// time, so no decoding and no HTTP is measured.

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
