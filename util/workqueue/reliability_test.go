package workqueue

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

// TestRateLimitingQueueUnderLoad has 8 producers and 8 consumers hammer one
// rate-limiting queue with Add, AddAfter and AddRateLimited on a small key
// space, while consumers themselves requeue some keys with AddRateLimited.
// A fake clock drives every delay. Afterwards every key must have been
// handed out after its last add, no key may ever have been in two workers'
// hands at once, and nothing may be left in the queue.
func TestRateLimitingQueueUnderLoad(t *testing.T) {
	const (
		producers   = 8
		consumers   = 8
		keys        = 256
		addsPerProd = 3000
	)
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedRateLimitingQueueWithConfig(
		NewTypedItemExponentialFailureRateLimiter[int](time.Millisecond, 50*time.Millisecond),
		TypedRateLimitingQueueConfig[int]{Name: "load", MetricsProvider: newRecordingProvider(), Clock: c},
	)
	t.Cleanup(q.ShutDown) // releases the consumers if the test fails early

	// tick orders adds and hand-outs: lastAdd[k] is the tick taken just
	// before the latest add of k, lastGet[k] the tick taken when a worker
	// received k.
	var tick atomic.Int64
	var lastAdd, lastGet [keys]atomic.Int64
	var inFlight [keys]atomic.Int32
	var concurrent, processed atomic.Int64
	progress := make(chan struct{}, 1)

	var workers sync.WaitGroup
	for w := range consumers {
		workers.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				lastGet[k].Store(tick.Add(1))
				if inFlight[k].Add(1) != 1 {
					concurrent.Add(1)
				}
				switch {
				case rng.IntN(8) == 0 && q.NumRequeues(k) < 3:
					lastAdd[k].Store(tick.Add(1))
					q.AddRateLimited(k) // "failed": retry later
				default:
					q.Forget(k)
				}
				// Hold the key a little, so that producers often add it
				// again while it is in flight.
				runtime.Gosched()
				inFlight[k].Add(-1)
				q.Done(k)
				processed.Add(1)
				select {
				case progress <- struct{}{}:
				default:
				}
			}
		})
	}

	var adders sync.WaitGroup
	for p := range producers {
		adders.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(p), 2))
			for range addsPerProd {
				k := rng.IntN(keys)
				lastAdd[k].Store(tick.Add(1))
				switch rng.IntN(3) {
				case 0:
					q.Add(k)
				case 1:
					q.AddAfter(k, time.Duration(rng.IntN(20))*time.Millisecond)
				default:
					q.AddRateLimited(k)
				}
				runtime.Gosched() // interleave with the consumers
			}
		})
	}

	// Drive the fake clock while the producers run.
	addersDone := make(chan struct{})
	go func() {
		adders.Wait()
		close(addersDone)
	}()
	for running := true; running; {
		select {
		case <-addersDone:
			running = false
		default:
			c.Step(time.Millisecond)
			runtime.Gosched()
		}
	}

	// Let every delay expire until each key was handed out after its last
	// add. The clock keeps moving because consumers may requeue keys.
	allProcessedAfterLastAdd := func() bool {
		for k := range keys {
			if lastAdd[k].Load() != 0 && lastGet[k].Load() < lastAdd[k].Load() {
				return false
			}
		}
		return true
	}
	deadline := time.After(20 * time.Second)
	for !allProcessedAfterLastAdd() || q.Len() > 0 || anyInFlight(inFlight[:]) {
		c.Step(time.Second)
		select {
		case <-progress:
		case <-deadline:
			for k := range keys {
				if lastGet[k].Load() < lastAdd[k].Load() {
					t.Errorf("key %d: last handed out at tick %d, last added at tick %d", k, lastGet[k].Load(), lastAdd[k].Load())
				}
			}
			t.Fatalf("queue did not settle: Len %d", q.Len())
		case <-time.After(10 * time.Millisecond):
			// No consumer progress: the queue's timer goroutine may still
			// be arming for the step above; step again.
		}
	}

	// Nothing may be waiting anywhere: after one more step the queue stays
	// empty, and shutting down hands out no further item.
	c.Step(time.Hour)
	q.ShutDownWithDrain()
	workers.Wait()
	if q.Len() != 0 {
		t.Fatalf("%d items left after shutdown", q.Len())
	}
	if n := concurrent.Load(); n != 0 {
		t.Fatalf("%d times a key was handed to a second worker while in flight", n)
	}
	for k := range keys {
		if n := q.NumRequeues(k); n > 3 {
			t.Errorf("key %d has %d requeues; consumers retry at most 3 times", k, n)
		}
	}
	if processed.Load() < keys {
		t.Fatalf("only %d items processed", processed.Load())
	}
	t.Logf("%d items processed for %d adds", processed.Load(), producers*addsPerProd)
}

func anyInFlight(inFlight []atomic.Int32) bool {
	for i := range inFlight {
		if inFlight[i].Load() != 0 {
			return true
		}
	}
	return false
}
