package workqueue

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestTypedConcurrentAddGetDone has producers and workers use one queue at
// once, as a controller does, and checks the contract that the lock, the
// ledger and the wakeups must keep together: no key is ever in two
// workers' hands at once; every add is followed by a processing that
// starts after it (none is lost, even when it lands while the key is in
// flight); with distinct keys every key is processed exactly once; and
// nothing is left afterwards.
func TestTypedConcurrentAddGetDone(t *testing.T) {
	tests := []struct {
		name               string
		producers, workers int
		addsPerProducer    int
		keys               int // distinct keys; adds cycle through them
		custom             bool
	}{
		{name: "distinct keys, more workers than producers", producers: 2, workers: 4, addsPerProducer: 4000, keys: 8000},
		{name: "distinct keys, more producers than workers", producers: 4, workers: 2, addsPerProducer: 2000, keys: 8000},
		{name: "few keys re-added while waiting and in flight", producers: 4, workers: 4, addsPerProducer: 3000, keys: 16},
		{name: "custom order, few keys", producers: 4, workers: 4, addsPerProducer: 2000, keys: 16, custom: true},
		{name: "one key", producers: 3, workers: 3, addsPerProducer: 2000, keys: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := TypedQueueConfig[int]{}
			if tc.custom {
				cfg.Queue = DefaultQueue[int]()
			}
			q := NewTypedWithConfig(cfg)
			t.Cleanup(q.ShutDown)

			// adds[k] counts the adds of k, each counted just before
			// it is made; seen[k] is the largest adds[k] a worker read
			// when it received k.
			adds := make([]atomic.Int64, tc.keys)
			seen := make([]atomic.Int64, tc.keys)
			processed := make([]atomic.Int64, tc.keys)
			busy := make([]atomic.Bool, tc.keys)
			var concurrent atomic.Int64

			var workers sync.WaitGroup
			for range tc.workers {
				workers.Go(func() {
					for {
						k, shutdown := q.Get()
						if shutdown {
							return
						}
						if !busy[k].CompareAndSwap(false, true) {
							concurrent.Add(1)
						}
						n := adds[k].Load()
						for {
							if old := seen[k].Load(); n <= old || seen[k].CompareAndSwap(old, n) {
								break
							}
						}
						processed[k].Add(1)
						runtimeYield() // let adds land while k is in flight
						busy[k].Store(false)
						q.Done(k)
					}
				})
			}
			var producers sync.WaitGroup
			for p := range tc.producers {
				producers.Go(func() {
					for i := range tc.addsPerProducer {
						k := (p*tc.addsPerProducer + i) % tc.keys
						adds[k].Add(1)
						q.Add(k)
						if i%8 == 0 {
							runtimeYield() // let the workers keep up
						}
					}
				})
			}
			producers.Wait()
			q.ShutDown() // workers get what is still queued, then stop
			workers.Wait()

			if n := concurrent.Load(); n > 0 {
				t.Errorf("%d times a key was handed to a worker while another held it", n)
			}
			distinct := tc.keys == tc.producers*tc.addsPerProducer
			for k := range tc.keys {
				if a, s := adds[k].Load(), seen[k].Load(); s != a {
					t.Errorf("key %d: last processing started after %d of its %d adds", k, s, a)
				}
				if p := processed[k].Load(); distinct && p != 1 {
					t.Errorf("key %d added once was processed %d times", k, p)
				}
			}
			if n := q.Len(); n != 0 {
				t.Errorf("Len() = %d after the workers stopped", n)
			}
		})
	}
}

// TestTypedFIFOWithConcurrentProducers has producers add their own keys in
// increasing order while one worker takes them: the worker must see each
// producer's keys in the order that producer added them, each once.
func TestTypedFIFOWithConcurrentProducers(t *testing.T) {
	const producers, perProducer = 4, 3000
	for _, custom := range []bool{false, true} {
		cfg := TypedQueueConfig[int]{}
		if custom {
			cfg.Queue = DefaultQueue[int]()
		}
		q := NewTypedWithConfig(cfg)
		got := make([][]int, producers)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				got[k/perProducer] = append(got[k/perProducer], k)
				q.Done(k)
			}
		}()
		var wg sync.WaitGroup
		for p := range producers {
			wg.Go(func() {
				for i := range perProducer {
					q.Add(p*perProducer + i)
				}
			})
		}
		wg.Wait()
		q.ShutDown()
		<-done
		for p, keys := range got {
			want := make([]int, perProducer)
			for i := range want {
				want[i] = p*perProducer + i
			}
			if !slices.Equal(keys, want) {
				t.Fatalf("custom=%v: producer %d's %d keys came out as %d keys, in order: %v", custom, p, perProducer, len(keys), slices.IsSorted(keys))
			}
		}
	}
}

// TestTypedShutDownWithDrainWaitsForEveryWorker starts ShutDownWithDrain
// while several workers hold items and lets them finish together: it must
// return only after the last of them called Done, and the items still
// waiting at shutdown must be handed out all the same.
func TestTypedShutDownWithDrainWaitsForEveryWorker(t *testing.T) {
	const workers, waiting = 4, 100
	q := NewTyped[int]()
	for i := range workers + waiting {
		q.Add(i)
	}
	held := make([]int, workers)
	for w := range held {
		held[w], _ = q.Get()
	}

	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	for !q.ShuttingDown() {
		runtimeYield()
	}
	// The waiting items are handed out and finished during the drain.
	for range waiting {
		k, shutdown := q.Get()
		if shutdown {
			t.Fatal("Get reported shutdown while items were waiting")
		}
		q.Done(k)
	}
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while workers held items")
	default:
	}

	var finished atomic.Int64
	var wg sync.WaitGroup
	for _, k := range held {
		wg.Go(func() {
			finished.Add(1)
			q.Done(k)
		})
	}
	<-drained
	if n := finished.Load(); n != workers {
		t.Fatalf("ShutDownWithDrain returned after %d of %d workers finished", n, workers)
	}
	wg.Wait()
	if _, shutdown := q.Get(); !shutdown {
		t.Fatal("Get after the drain did not report shutdown")
	}
}
