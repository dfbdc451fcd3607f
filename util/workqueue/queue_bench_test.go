package workqueue

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkTypedAddGetDone is one Add, Get and Done of distinct string keys
// on an uncontended queue: the length of the critical sections.
func BenchmarkTypedAddGetDone(b *testing.B) {
	q := NewTyped[any]()
	defer q.ShutDown()
	keys := make([]any, 1024)
	for i := range keys {
		keys[i] = "namespace/object-" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		q.Add(keys[i%len(keys)])
		item, _ := q.Get()
		q.Done(item)
	}
}

// BenchmarkTypedContended is the bench module's workqueue workload in
// small: 4 producers add distinct keys, holding the backlog under 4096,
// while 4 workers Get and Done them. One op is one add. The named queue
// reports metrics, as controller-runtime's and kube-controller-manager's
// queues do.
func BenchmarkTypedContended(b *testing.B) {
	b.Run("unnamed", func(b *testing.B) { benchmarkContended(b, NewTyped[string]()) })
	b.Run("named", func(b *testing.B) {
		benchmarkContended(b, NewTypedWithConfig(TypedQueueConfig[string]{Name: "bench", MetricsProvider: atomicProvider{}}))
	})
}

func benchmarkContended(b *testing.B, q *Typed[string]) {
	const producers, workers, maxBacklog = 4, 4, 4096
	keys := contendedKeys()
	var added, processed atomic.Int64
	var got sync.WaitGroup
	for range workers {
		got.Go(func() {
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				processed.Add(1)
				q.Done(k)
			}
		})
	}
	b.ReportAllocs()
	b.ResetTimer()
	var adders sync.WaitGroup
	for p := range producers {
		adders.Go(func() {
			for i := p; i < b.N; i += producers {
				if added.Add(1)%256 == 0 {
					for added.Load()-processed.Load() > maxBacklog {
						runtime.Gosched()
					}
				}
				// A key comes back a million adds later. That is long
				// after it was processed, unless its worker was
				// descheduled meanwhile (on a loaded machine, 100 ms
				// happens); then the add merges into the pending one,
				// as the queue's contract says.
				q.Add(keys[i%len(keys)])
			}
		})
	}
	adders.Wait()
	q.ShutDown()
	got.Wait()
	b.StopTimer()
	if n := processed.Load(); n > int64(b.N) || q.Len() != 0 {
		b.Fatalf("workers processed %d items for %d adds, %d left", n, b.N, q.Len())
	}
}

// contendedKeys are the keys of BenchmarkTypedContended, made once.
var contendedKeys = sync.OnceValue(func() []string {
	keys := make([]string, 1<<20)
	for i := range keys {
		keys[i] = "team-" + strconv.Itoa(i%50) + "/pod-" + strconv.Itoa(i)
	}
	return keys
})

// atomicProvider hands out metrics that cost what a Prometheus counter,
// gauge or histogram does on the hot path: an atomic update.
type atomicProvider struct{}

type atomicMetric struct{ v atomic.Int64 }

func (m *atomicMetric) Inc()              { m.v.Add(1) }
func (m *atomicMetric) Dec()              { m.v.Add(-1) }
func (m *atomicMetric) Set(v float64)     { m.v.Store(int64(v)) }
func (m *atomicMetric) Observe(v float64) { m.v.Add(int64(v * 1e9)) }

func (atomicProvider) NewDepthMetric(string) GaugeMetric            { return new(atomicMetric) }
func (atomicProvider) NewAddsMetric(string) CounterMetric           { return new(atomicMetric) }
func (atomicProvider) NewLatencyMetric(string) HistogramMetric      { return new(atomicMetric) }
func (atomicProvider) NewWorkDurationMetric(string) HistogramMetric { return new(atomicMetric) }
func (atomicProvider) NewRetriesMetric(string) CounterMetric        { return new(atomicMetric) }
func (atomicProvider) NewUnfinishedWorkSecondsMetric(string) SettableGaugeMetric {
	return new(atomicMetric)
}
func (atomicProvider) NewLongestRunningProcessorSecondsMetric(string) SettableGaugeMetric {
	return new(atomicMetric)
}
