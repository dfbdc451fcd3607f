package harness

import (
	"context"
	"fmt"
	"runtime"
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
)

// workqueueContention has 4 producers add distinct namespace/name keys
// while 4 workers Get and Done them; every add is processed exactly once.
func workqueueContention(_ context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	per := p.Ops
	if per <= 0 {
		per = 250_000
	}
	total := producers * per
	keys := make([]string, total)
	for i := range keys {
		keys[i] = "team-" + strconv.Itoa(i%fixture.Namespaces) + "/pod-" + strconv.Itoa(i)
	}
	q := lib.NewQueue()
	var processed, added atomic.Int64
	var got sync.WaitGroup
	for w := 0; w < workers; w++ {
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
	liveHeap()
	st := take()
	var adders sync.WaitGroup
	for pr := 0; pr < producers; pr++ {
		adders.Go(func() {
			for i := pr; i < total; i += producers {
				if added.Add(1)%256 == 0 {
					for added.Load()-processed.Load() > maxBacklog {
						runtime.Gosched()
					}
				}
				q.Add(keys[i])
			}
		})
	}
	adders.Wait()
	q.ShutDown() // Get still hands out what is queued, then reports shutdown
	got.Wait()
	d := since(st)
	if n := processed.Load(); n != int64(total) {
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
