package workqueue

import (
	"context"
	"sync"
	"sync/atomic"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// DoWorkPieceFunc processes the piece with the given index.
type DoWorkPieceFunc func(piece int)

// options holds the settings of ParallelizeUntil.
type options struct {
	chunkSize int
}

// Options adjusts how ParallelizeUntil hands out work.
type Options func(*options)

// WithChunkSize makes each worker claim c consecutive pieces at a time
// instead of one. It pays off when there are many more pieces than workers
// and each piece is cheap.
func WithChunkSize(c int) func(*options) {
	return func(o *options) {
		o.chunkSize = c
	}
}

// ParallelizeUntil runs doWorkPiece for every piece in [0, pieces) on at most
// workers goroutines and returns when all are done or, once ctx is
// cancelled, as soon as the running pieces finish. A nil ctx never cancels.
// A panic in doWorkPiece is reported and then crashes the process.
func ParallelizeUntil(ctx context.Context, workers, pieces int, doWorkPiece DoWorkPieceFunc, opts ...Options) {
	if pieces <= 0 {
		return
	}
	o := options{chunkSize: 1}
	for _, opt := range opts {
		opt(&o)
	}
	chunkSize := max(o.chunkSize, 1)

	var stop <-chan struct{}
	if ctx != nil {
		stop = ctx.Done()
	}

	chunks := (pieces + chunkSize - 1) / chunkSize
	workers = min(workers, chunks) // workers <= 0 runs nothing

	// next is the next unclaimed chunk; workers claim chunks with Add.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer utilruntime.HandleCrash()
			for {
				chunk := int(next.Add(1) - 1)
				if chunk >= chunks {
					return
				}
				end := min((chunk+1)*chunkSize, pieces)
				for piece := chunk * chunkSize; piece < end; piece++ {
					select {
					case <-stop:
						return
					default:
					}
					doWorkPiece(piece)
				}
			}
		})
	}
	wg.Wait()
}
