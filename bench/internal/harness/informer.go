package harness

import (
	"context"
	"fmt"
	"time"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

func typedInformer(ctx context.Context, lib Lib, p Params, res *fixture.Resource) (map[string]float64, error) {
	if !res.Typed {
		return nil, fmt.Errorf("%s has no typed client; use the dynamic workload", res.Name)
	}
	inf, err := lib.TypedInformer(p.Host, res.Name, p.Format == "protobuf")
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, false)
}

// crdInformer measures the generated informer of a custom resource's
// typed clientset (examples/crd's CronTab).
func crdInformer(ctx context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	inf, err := lib.CronTabInformer(p.Host)
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, false)
}

func dynamicInformer(ctx context.Context, lib Lib, p Params, res *fixture.Resource) (map[string]float64, error) {
	inf, err := lib.DynamicInformer(p.Host, res.GVR())
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, false)
}

func metadataInformer(ctx context.Context, lib Lib, p Params, res *fixture.Resource) (map[string]float64, error) {
	inf, err := lib.MetadataInformer(p.Host, res.GVR())
	if err != nil {
		return nil, err
	}
	return measureInformer(ctx, inf, p, false)
}

// measureInformer runs inf with one handler through three phases and
// measures each: the initial sync (paginated LIST or watch-list, as the
// library chooses under KUBE_FEATURE_WatchListClient), a stream of
// p.Events MODIFIED events, and for the relist workload a 410 that forces a
// relist with the cache full.
//
// With readers, goroutines read the cache from the start of the sync to
// the end of the event stream (see readersInformer).
func measureInformer(ctx context.Context, inf Informer, p Params, withReaders bool) (map[string]float64, error) {
	ctl := control{p.Host}
	c := NewCounter()
	var rd *readers
	if withReaders {
		if inf.List == nil {
			return nil, fmt.Errorf("the library gives no List of the informer's cache")
		}
		rd = newReaders(inf.List, c, readerEvery(p))
	}
	if err := inf.AddHandler(c); err != nil {
		return nil, err
	}
	m := map[string]float64{}
	n, e := float64(p.N), float64(p.Events)
	baseHeap := liveHeap()

	// Initial sync.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := take()
	peak := startPeak()
	done := make(chan struct{})
	go func() { defer close(done); inf.Run(ctx) }()
	defer func() { cancel(); <-done }()
	if rd != nil {
		rd.start()
		defer rd.stop()
	}
	if err := c.await(int64(p.N), timeout(p.N)); err != nil {
		return m, fmt.Errorf("initial sync: %w", err)
	}
	for !inf.HasSynced() {
		time.Sleep(time.Millisecond)
	}
	syncPeak := peak.end()
	sync := since(start)
	m["sync_wall_ms"] = ms(sync.wall)
	m["sync_cpu_ms"] = ms(sync.cpu)
	m["sync_allocs_per_obj"] = sync.allocs / n
	m["sync_bytes_per_obj"] = sync.bytes / n
	m["sync_peak_heap_mb"] = mb(syncPeak - min(baseHeap, syncPeak))
	heap := liveHeap()
	m["heap_per_obj_b"] = float64(heap-min(baseHeap, heap)) / n
	if err := writeHeapProfile(); err != nil {
		return m, err
	}
	if got := inf.Len(); got != p.N {
		return m, fmt.Errorf("after the sync the informer holds %d objects, want %d", got, p.N)
	}
	if a, i := c.adds.Load(), c.initial.Load(); a != int64(p.N) || i != int64(p.N) {
		return m, fmt.Errorf("sync: %d adds, %d in the initial list, want %d", a, i, p.N)
	}

	// Event stream.
	if p.Events > 0 {
		st := take()
		if err := ctl.phase("events"); err != nil {
			return m, err
		}
		if err := c.await(int64(p.N+p.Events), timeout(p.Events)); err != nil {
			return m, fmt.Errorf("event stream: %w", err)
		}
		ev := since(st)
		m["event_cpu_us"] = us(ev.cpu) / e
		m["events_per_s"] = e / ev.wall.Seconds()
		m["event_allocs"] = ev.allocs / e
		m["event_bytes"] = ev.bytes / e
		m["cpu_us_per_event"] = us(sync.cpu+ev.cpu) / (n + e)
	}
	if rd != nil {
		rd.stop()
		if err := rd.report(m); err != nil {
			return m, err
		}
	}

	// Forced relist.
	if p.Workload == "relist" {
		before, err := ctl.stats()
		if err != nil {
			return m, err
		}
		liveHeap()
		st := take()
		peak := startPeak()
		if err := ctl.phase("expire"); err != nil {
			return m, err
		}
		if err := c.await(int64(2*p.N+p.Events), timeout(p.N)+10*time.Second); err != nil {
			return m, fmt.Errorf("relist: %w", err)
		}
		relistPeak := peak.end()
		rl := since(st)
		after, err := ctl.stats()
		if err != nil {
			return m, err
		}
		if after.Expired != 1 || after.Lists+after.WatchLists <= before.Lists+before.WatchLists {
			return m, fmt.Errorf("relist: the server saw no new list after the 410 (before %+v, after %+v)", before, after)
		}
		m["relist_cpu_ms"] = ms(rl.cpu)
		m["relist_allocs_per_obj"] = rl.allocs / n
		m["relist_bytes_per_obj"] = rl.bytes / n
		m["relist_peak_heap_mb"] = mb(relistPeak - min(baseHeap, relistPeak))
	}

	if d, b := c.deletes.Load(), c.bad.Load(); d != 0 || b != 0 {
		return m, fmt.Errorf("handler saw %d deletes and %d malformed notifications", d, b)
	}
	if got := inf.Len(); got != p.N {
		return m, fmt.Errorf("at the end the informer holds %d objects, want %d", got, p.N)
	}
	s, err := ctl.stats()
	if err != nil {
		return m, err
	}
	if p.Workload == "watchlist" && s.WatchLists == 0 {
		return m, fmt.Errorf("the library did not use watch-list streaming (server stats %+v)", s)
	}
	if p.Workload != "watchlist" && s.WatchLists != 0 {
		return m, fmt.Errorf("the library used watch-list streaming where a paginated LIST was asked for (server stats %+v)", s)
	}
	if p.Workload != "watchlist" && s.ListPages < int64((p.N+499)/500) {
		return m, fmt.Errorf("the initial LIST was not paginated (server stats %+v)", s)
	}
	return m, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
func mb(b uint64) float64        { return float64(b) / (1 << 20) }
