package harness

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

const (
	producers = 4
	workers   = 4
	queueKeys = 1000
)

// workqueueContention has 4 producers add keys (from a set of 1000, so
// some adds are deduplicated) while 4 workers Get and Done them.
func workqueueContention(_ context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	per := p.Ops
	if per <= 0 {
		per = 250_000
	}
	keys := make([]string, queueKeys)
	for i := range keys {
		keys[i] = "team-" + strconv.Itoa(i%fixture.Namespaces) + "/pod-" + strconv.Itoa(i)
	}
	q := lib.NewQueue()
	var got sync.WaitGroup
	var processed [workers]int
	for w := 0; w < workers; w++ {
		got.Add(1)
		go func(w int) {
			defer got.Done()
			for {
				k, shutdown := q.Get()
				if shutdown {
					return
				}
				processed[w]++
				q.Done(k)
			}
		}(w)
	}
	liveHeap()
	st := take()
	var added sync.WaitGroup
	for pr := 0; pr < producers; pr++ {
		added.Add(1)
		go func(pr int) {
			defer added.Done()
			for i := 0; i < per; i++ {
				q.Add(keys[(i*7+pr*131)%queueKeys])
			}
		}(pr)
	}
	added.Wait()
	q.ShutDown() // drains: workers return once the queue is empty
	got.Wait()
	d := since(st)
	total := 0
	for _, n := range processed {
		total += n
	}
	if total == 0 || total > producers*per {
		return nil, fmt.Errorf("workers processed %d items for %d adds", total, producers*per)
	}
	if q.Len() != 0 {
		return nil, fmt.Errorf("%d items left in the queue after ShutDown", q.Len())
	}
	adds := float64(producers * per)
	return map[string]float64{
		"adds_per_s": adds / d.wall.Seconds(), "cpu_ns_per_add": float64(d.cpu.Nanoseconds()) / adds,
		"allocs_per_add": d.allocs / adds, "processed": float64(total),
	}, nil
}
