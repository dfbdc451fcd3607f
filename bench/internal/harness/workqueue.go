package harness

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

const (
	producers = 4
	workers   = 4
	// maxBacklog bounds the items added but not yet processed, so the
	// workload measures contention rather than a growing backlog.
	maxBacklog = 4096
	// countBatch is how many items a producer or worker counts locally
	// before it adds them to the shared counters, so that the workload's
	// own bookkeeping does not contend like the queue it measures.
	countBatch = 64
)

// workqueueContention has 4 producers add distinct namespace/name keys
// while 4 workers Get and Done them; every add is processed exactly once.
// The workload's own bookkeeping stays out of the measurement as far as it
// can: producers and workers count in batches, and a producer that is too
// far ahead sleeps (backlogGate) rather than spinning, which would charge
// the CPU it burns to whichever queue lets producers run ahead.
func workqueueContention(_ context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	return contention(lib.NewQueue(), p)
}

// namedWorkqueueContention is workqueueContention on the queue a
// controller-runtime controller gets (Lib.NewNamedQueue): named, with
// Prometheus metrics and a rate limiter; workers Forget each item before
// Done, as a reconciler that succeeded does.
func namedWorkqueueContention(_ context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	return contention(lib.NewNamedQueue("bench"), p)
}

// forgetter is the rate-limiting queue's Forget.
type forgetter interface{ Forget(item string) }

// contention runs producers and workers on q and measures them.
func contention(q Queue, p Params) (map[string]float64, error) {
	per := p.Ops
	if per <= 0 {
		per = 250_000
	}
	total := producers * per
	keys := make([]string, total)
	for i := range keys {
		keys[i] = "team-" + strconv.Itoa(i%fixture.Namespaces) + "/pod-" + strconv.Itoa(i)
	}
	f, _ := q.(forgetter)
	var gate backlogGate
	gate.cond.L = &gate.mu
	var got sync.WaitGroup
	for w := 0; w < workers; w++ {
		got.Go(func() {
			var n int64 // published to processed every countBatch items
			for {
				k, shutdown := q.Get()
				if shutdown {
					gate.consumed(n)
					return
				}
				if f != nil {
					f.Forget(k)
				}
				q.Done(k)
				if n++; n == countBatch {
					gate.consumed(n)
					n = 0
				}
			}
		})
	}
	liveHeap()
	st := take()
	var adders sync.WaitGroup
	for pr := 0; pr < producers; pr++ {
		adders.Go(func() {
			var n int64 // published to added every countBatch adds
			for i := pr; i < total; i += producers {
				if n++; n == countBatch {
					gate.produced(n)
					n = 0
				}
				q.Add(keys[i])
			}
		})
	}
	adders.Wait()
	q.ShutDown() // Get still hands out what is queued, then reports shutdown
	got.Wait()
	d := since(st)
	if n := gate.processed.Load(); n != int64(total) {
		return nil, fmt.Errorf("workers processed %d items for %d distinct adds", n, total)
	}
	if q.Len() != 0 {
		return nil, fmt.Errorf("%d items left in the queue after ShutDown", q.Len())
	}
	adds := float64(total)
	return map[string]float64{
		"adds_per_s": adds / d.wall.Seconds(), "cpu_ns_per_add": float64(d.cpu.Nanoseconds()) / adds,
		"allocs_per_add": d.allocs / adds,
	}, nil
}

// backlogGate holds producers back, asleep, while more than maxBacklog
// items are added but not yet processed. Producers and workers report in
// batches of countBatch.
type backlogGate struct {
	added, processed atomic.Int64
	waiting          atomic.Int32 // producers in produced's wait
	mu               sync.Mutex
	cond             sync.Cond // L is &mu; broadcast when items are processed
}

func (g *backlogGate) backlog() int64 { return g.added.Load() - g.processed.Load() }

// produced counts n adds and waits while the backlog is too long.
func (g *backlogGate) produced(n int64) {
	if g.added.Add(n)-g.processed.Load() <= maxBacklog {
		return
	}
	g.mu.Lock()
	g.waiting.Add(1)
	for g.backlog() > maxBacklog {
		g.cond.Wait()
	}
	g.waiting.Add(-1)
	g.mu.Unlock()
}

// consumed counts n processed items and wakes waiting producers.
func (g *backlogGate) consumed(n int64) {
	g.processed.Add(n)
	if g.waiting.Load() > 0 {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	}
}
