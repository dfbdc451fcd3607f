package bench

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	kc "github.com/kubeclient/client-go/util/workqueue"
	cg "k8s.io/client-go/util/workqueue"
)

// The same workqueue benchmarks run against k8s.io/client-go ("client-go")
// and this module ("kubeclient"), as sub-benchmarks side by side. Each body
// is written once against the small interfaces below, which both
// implementations satisfy, so both pay the same call overhead.

type wqQueue[T comparable] interface {
	Add(item T)
	Get() (item T, shutdown bool)
	Done(item T)
	Len() int
	ShutDown()
}

type wqDelaying[T comparable] interface {
	wqQueue[T]
	AddAfter(item T, d time.Duration)
}

type wqImpl struct {
	name        string
	newInt      func() wqQueue[int]
	newAny      func() wqQueue[any]
	newDelaying func() wqDelaying[int]
}

var wqImpls = []wqImpl{
	{
		name:        "client-go",
		newInt:      func() wqQueue[int] { return cg.NewTyped[int]() },
		newAny:      func() wqQueue[any] { return cg.New() },
		newDelaying: func() wqDelaying[int] { return cg.NewTypedDelayingQueue[int]() },
	},
	{
		name:        "kubeclient",
		newInt:      func() wqQueue[int] { return kc.NewTyped[int]() },
		newAny:      func() wqQueue[any] { return kc.New() },
		newDelaying: func() wqDelaying[int] { return kc.NewTypedDelayingQueue[int]() },
	},
}

// BenchmarkWorkqueueAddGetDone measures one Add, Get, Done cycle on one goroutine.
func BenchmarkWorkqueueAddGetDone(b *testing.B) {
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			q := im.newInt()
			defer q.ShutDown()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				q.Add(i)
				item, _ := q.Get()
				q.Done(item)
			}
		})
	}
}

// BenchmarkWorkqueueAddGetDoneParallel runs the cycle on GOMAXPROCS goroutines that
// contend for one queue, each with its own distinct keys.
func BenchmarkWorkqueueAddGetDoneParallel(b *testing.B) {
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			q := im.newInt()
			defer q.ShutDown()
			var ids atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				base := int(ids.Add(1)) << 40
				for i := 0; pb.Next(); i++ {
					q.Add(base + i)
					item, _ := q.Get()
					q.Done(item)
				}
			})
		})
	}
}

// BenchmarkWorkqueueAddGetDoneParallelStrings is the contended cycle on the untyped
// queue with namespace/name string keys, as controllers use it.
func BenchmarkWorkqueueAddGetDoneParallelStrings(b *testing.B) {
	const keysPerWorker = 4096
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			q := im.newAny()
			defer q.ShutDown()
			var ids atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				id := ids.Add(1)
				keys := make([]any, keysPerWorker)
				for i := range keys {
					keys[i] = "namespace-" + strconv.FormatInt(id, 10) + "/object-" + strconv.Itoa(i)
				}
				for i := 0; pb.Next(); i++ {
					q.Add(keys[i%keysPerWorker])
					item, _ := q.Get()
					q.Done(item)
				}
			})
		})
	}
}

// BenchmarkWorkqueueProducersConsumers has 4 producers add b.N distinct
// keys while 4 consumers Get and Done them; every add is processed once, so
// ns/op is the time per item through the contended queue, from the first Add
// until the queue is drained. Producers pause while more than maxBacklog
// items are added but not yet processed, so that the benchmark measures
// contention, not the growth of an ever larger backlog.
func BenchmarkWorkqueueProducersConsumers(b *testing.B) {
	benchWorkqueueProducersConsumers(b, 0)
}

// BenchmarkWorkqueueProducersConsumersDuplicates is
// BenchmarkWorkqueueProducersConsumers with keys drawn from 1024, so most
// adds find their key already queued and are merged. ns/op is per add;
// processed/op says how many items the consumers actually handled. The
// faster a queue hands items out, the fewer adds find their key still
// queued, so it processes more and merges less: compare the two numbers
// together.
func BenchmarkWorkqueueProducersConsumersDuplicates(b *testing.B) {
	benchWorkqueueProducersConsumers(b, 1024)
}

// benchWorkqueueProducersConsumers adds keys i%distinct, or i when distinct
// is 0 (then with the backlog bounded by maxBacklog).
const maxBacklog = 4096

func benchWorkqueueProducersConsumers(b *testing.B, distinct int) {
	const producers, consumers = 4, 4
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			q := im.newInt()
			b.ReportAllocs()
			b.ResetTimer()
			var workers sync.WaitGroup
			var processed atomic.Int64
			for range consumers {
				workers.Go(func() {
					for {
						item, shutdown := q.Get()
						if shutdown {
							return
						}
						processed.Add(1)
						q.Done(item)
					}
				})
			}
			var adders sync.WaitGroup
			var added atomic.Int64
			for p := range producers {
				adders.Go(func() {
					for i := p; i < b.N; i += producers {
						key := i
						if distinct > 0 {
							key %= distinct
						} else if added.Add(1)%256 == 0 {
							for added.Load()-processed.Load() > maxBacklog {
								runtime.Gosched()
							}
						}
						q.Add(key)
					}
				})
			}
			adders.Wait()
			q.ShutDown() // Get still hands out what is queued
			workers.Wait()
			b.ReportMetric(float64(processed.Load())/float64(b.N), "processed/op")
		})
	}
}

// BenchmarkWorkqueueAddAfter measures AddAfter of distinct keys with delays in
// random order that do not expire during the benchmark, into queues that
// grow to 10000 waiting items and are then replaced (untimed).
func BenchmarkWorkqueueAddAfter(b *testing.B) {
	const perQueue = 10000
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			b.ReportAllocs()
			for done := 0; done < b.N; {
				b.StopTimer()
				q := im.newDelaying()
				b.StartTimer()
				for j := 0; j < perQueue && done < b.N; j, done = j+1, done+1 {
					q.AddAfter(j, time.Hour+time.Duration(j*7919%10007)*time.Millisecond)
				}
				b.StopTimer()
				q.ShutDown()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkWorkqueueAddAfterParallel is AddAfter from GOMAXPROCS goroutines, with
// keys repeating within 1024 per goroutine.
func BenchmarkWorkqueueAddAfterParallel(b *testing.B) {
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			q := im.newDelaying()
			defer q.ShutDown()
			var ids atomic.Int64
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				base := int(ids.Add(1)) << 40
				for i := 0; pb.Next(); i++ {
					q.AddAfter(base+i%1024, time.Hour-time.Duration(i)%time.Minute)
				}
			})
		})
	}
}

// BenchmarkWorkqueueAddAfterDelivery has one producer AddAfter b.N distinct keys with
// a 1µs delay while 2 consumers Get and Done them; it reports the time per
// item from the first AddAfter until the last item is done.
func BenchmarkWorkqueueAddAfterDelivery(b *testing.B) {
	const consumers = 2
	for _, im := range wqImpls {
		b.Run(im.name, func(b *testing.B) {
			q := im.newDelaying()
			var done atomic.Int64
			all := make(chan struct{})
			b.ReportAllocs()
			b.ResetTimer()
			var workers sync.WaitGroup
			for range consumers {
				workers.Go(func() {
					for {
						item, shutdown := q.Get()
						if shutdown {
							return
						}
						q.Done(item)
						if done.Add(1) == int64(b.N) {
							close(all)
						}
					}
				})
			}
			for i := range b.N {
				q.AddAfter(i, time.Microsecond)
			}
			<-all
			b.StopTimer()
			q.ShutDown()
			workers.Wait()
		})
	}
}
