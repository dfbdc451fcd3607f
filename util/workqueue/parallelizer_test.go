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
	tests := []struct {
		name    string
		workers int
	}{
		{"one worker", 1},
		{"two workers", 2},
		{"eight workers", 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var ran, startedAfterCancel atomic.Int32
			var cancelled atomic.Bool
			ParallelizeUntil(ctx, tt.workers, 1000, func(p int) {
				if cancelled.Load() {
					startedAfterCancel.Add(1)
				}
				if ran.Add(1) == 10 {
					cancel()
					cancelled.Store(true)
				}
			})
			// Other workers keep going until cancel has returned, so the total
			// is not exact; but once it has, each worker may at most be past
			// its check of the context with one piece.
			if n := startedAfterCancel.Load(); n > int32(tt.workers-1) {
				t.Errorf("%d pieces started after cancel returned; want at most %d", n, tt.workers-1)
			}
			if n := ran.Load(); n < 10 || n == 1000 {
				t.Errorf("%d pieces ran; want cancellation after the 10th to stop the rest", n)
			}
			if tt.workers == 1 && ran.Load() != 10 {
				t.Errorf("one worker ran %d pieces; want exactly 10", ran.Load())
			}
		})
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
