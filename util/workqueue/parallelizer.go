package workqueue

import (
	"context"
	"sync"
	"sync/atomic"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// ParallelizeUntil runs doWorkPiece for every piece in [0, pieces) on at most
// workers goroutines and returns when all are done or, once ctx is
// cancelled, as soon as the running pieces finish. A nil ctx never cancels.
// A panic in doWorkPiece is reported and then crashes the process.
func ParallelizeUntil(ctx context.Context, workers, pieces int, doWorkPiece DoWorkPieceFunc, opts ...Options) {
	if pieces <= 0 {
		return
	}
	w := work{pieces: pieces, chunkSize: chunkSizeOf(opts), do: doWorkPiece}
	if ctx != nil {
		w.stop = ctx.Done()
	}
	var wg sync.WaitGroup
	for range min(workers, w.chunks()) { // workers <= 0 runs nothing
		wg.Go(w.run)
	}
	wg.Wait()
}

// work is one ParallelizeUntil call: its pieces are claimed in chunks of
// consecutive pieces by the workers' goroutines.
type work struct {
	pieces, chunkSize int
	do                DoWorkPieceFunc
	stop              <-chan struct{} // nil: never
	next              atomic.Int64    // the next unclaimed chunk
}

func (w *work) chunks() int { return (w.pieces + w.chunkSize - 1) / w.chunkSize }

// run is one worker: it claims chunks and does their pieces until none is
// left or stop is closed.
func (w *work) run() {
	defer utilruntime.HandleCrash()
	for chunk := int(w.next.Add(1) - 1); chunk < w.chunks(); chunk = int(w.next.Add(1) - 1) {
		first := chunk * w.chunkSize
		for piece := first; piece < min(first+w.chunkSize, w.pieces); piece++ {
			select {
			case <-w.stop:
				return
			default:
			}
			w.do(piece)
		}
	}
}

// DoWorkPieceFunc processes the piece with the given index.
type DoWorkPieceFunc func(piece int)

// Options adjusts how ParallelizeUntil hands out work.
type Options func(*options)

// options holds the settings of ParallelizeUntil.
type options struct {
	chunkSize int
}

// WithChunkSize makes each worker claim c consecutive pieces at a time
// instead of one. It pays off when there are many more pieces than workers
// and each piece is cheap.
func WithChunkSize(c int) func(*options) {
	return func(o *options) { o.chunkSize = c }
}

// chunkSizeOf applies opts and returns the chunk size, at least 1.
func chunkSizeOf(opts []Options) int {
	o := options{chunkSize: 1}
	for _, apply := range opts {
		apply(&o)
	}
	return max(o.chunkSize, 1)
}
