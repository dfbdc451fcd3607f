package workqueue

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestParallelizeUntilRunsEveryPieceOnce(t *testing.T) {
	tests := []struct {
		workers, pieces, chunk int
	}{
		{workers: 1, pieces: 1, chunk: 1},
		{workers: 4, pieces: 1000, chunk: 1},
		{workers: 4, pieces: 1000, chunk: 7},
		{workers: 16, pieces: 3, chunk: 1},
		{workers: 3, pieces: 100, chunk: 1000},
		{workers: 2, pieces: 10, chunk: 0}, // chunk < 1 means 1
		{workers: 2, pieces: 0, chunk: 1},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("w%d_p%d_c%d", tc.workers, tc.pieces, tc.chunk), func(t *testing.T) {
			counts := make([]atomic.Int32, tc.pieces)
			var running, peak atomic.Int32
			ParallelizeUntil(context.Background(), tc.workers, tc.pieces, func(p int) {
				n := running.Add(1)
				for {
					old := peak.Load()
					if n <= old || peak.CompareAndSwap(old, n) {
						break
					}
				}
				counts[p].Add(1)
				running.Add(-1)
			}, WithChunkSize(tc.chunk))
			for p := range counts {
				if c := counts[p].Load(); c != 1 {
					t.Fatalf("piece %d ran %d times", p, c)
				}
			}
			if int(peak.Load()) > tc.workers {
				t.Fatalf("%d pieces ran at once with %d workers", peak.Load(), tc.workers)
			}
		})
	}
}

func TestParallelizeUntilStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	ParallelizeUntil(ctx, 2, 1000, func(p int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	// Each of the 2 workers may finish the piece it was running.
	if n := ran.Load(); n < 10 || n > 11 {
		t.Fatalf("%d pieces ran; cancellation after the 10th should stop the rest", n)
	}
}

func TestParallelizeUntilNilContextAndNoWorkers(t *testing.T) {
	var ran atomic.Int32
	// A nil context means "never cancelled".
	ParallelizeUntil(nil, 3, 50, func(int) { ran.Add(1) })
	if ran.Load() != 50 {
		t.Fatalf("nil context: %d of 50 pieces ran", ran.Load())
	}
	ran.Store(0)
	ParallelizeUntil(context.Background(), 0, 50, func(int) { ran.Add(1) })
	if ran.Load() != 0 {
		t.Fatalf("zero workers ran %d pieces", ran.Load())
	}
}
