package harness

import (
	"context"
	"fmt"

	"github.com/kubeclient/client-go/bench/internal/fixture"
)

// restGet measures the typed client's Get of one Pod.
func restGet(ctx context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	pods, err := lib.Pods(p.Host, p.Format == "protobuf")
	if err != nil {
		return nil, err
	}
	ops := p.Ops
	if ops <= 0 {
		ops = 2000
	}
	for i := 0; i < 50; i++ {
		if err := pods.Get(ctx, "team-00", "any"); err != nil {
			return nil, err
		}
	}
	liveHeap()
	st := take()
	for i := 0; i < ops; i++ {
		if err := pods.Get(ctx, "team-00", "any"); err != nil {
			return nil, err
		}
	}
	d := since(st)
	o := float64(ops)
	return map[string]float64{
		"get_cpu_us": us(d.cpu) / o, "get_allocs": d.allocs / o, "get_bytes": d.bytes / o, "gets_per_s": o / d.wall.Seconds(),
	}, nil
}

// restList measures the typed client's unpaginated List of all Pods.
func restList(ctx context.Context, lib Lib, p Params, _ *fixture.Resource) (map[string]float64, error) {
	pods, err := lib.Pods(p.Host, p.Format == "protobuf")
	if err != nil {
		return nil, err
	}
	return measureList(ctx, pods, p)
}

// measureList measures p.Ops unpaginated Lists of all Pods by pods.
func measureList(ctx context.Context, pods PodClient, p Params) (map[string]float64, error) {
	ops := p.Ops
	if ops <= 0 {
		ops = 5
	}
	if _, err := pods.List(ctx); err != nil {
		return nil, err
	}
	baseHeap := liveHeap()
	st := take()
	peak := startPeak()
	for i := 0; i < ops; i++ {
		n, err := pods.List(ctx)
		if err != nil {
			return nil, err
		}
		if n != p.N {
			return nil, fmt.Errorf("list returned %d items, want %d", n, p.N)
		}
	}
	pk := peak.end()
	d := since(st)
	o := float64(ops)
	return map[string]float64{
		"list_cpu_ms": ms(d.cpu) / o, "list_wall_ms": ms(d.wall) / o, "list_allocs": d.allocs / o,
		"list_mb": d.bytes / o / (1 << 20), "list_peak_heap_mb": mb(pk - min(baseHeap, pk)),
	}, nil
}
