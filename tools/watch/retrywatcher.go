package watch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/internal/watchstream"
	"github.com/kubeclient/client-go/tools/cache"
)

// minRestartDelay is the least time between the starts of two watches.
const minRestartDelay = time.Second

// RetryWatcher is a watch.Interface that survives the underlying watch
// ending (API or etcd timeouts, dropped connections, a stream that stalls):
// it reopens the watch from the last resource version it delivered, so the
// consumer sees every event exactly once and in order. It cannot survive
// the server no longer having that resource version (410 Gone): it then
// delivers the error event and stops. Use an informer when that must be
// recovered from.
//
// Goroutines: the constructor starts one goroutine, run, which owns every
// underlying watch and the resume point, and is the only sender on, and the
// closer of, the result channel. A second, short-lived goroutine turns Stop
// into the cancellation of run's context. Neither needs a lock.
type RetryWatcher struct {
	source cache.WatcherWithContext
	timing retryTiming

	// resumeFrom is the resource version of the last event or bookmark
	// received; only run touches it.
	resumeFrom string

	events   chan watch.Event
	stopped  chan struct{} // closed by the first Stop
	stopOnce sync.Once
	done     chan struct{} // closed when run has returned
	cancel   context.CancelCauseFunc
}

// retryTiming holds what decides when the next watch starts.
type retryTiming struct {
	clock clock.WithTicker
	// restartDelay is the least time between the starts of two watches.
	restartDelay time.Duration
}

var defaultTiming = retryTiming{clock: clock.RealClock{}, restartDelay: minRestartDelay}

// NewRetryWatcher returns a RetryWatcher starting at
// initialResourceVersion, which must not be "" or "0".
//
// Deprecated: use NewRetryWatcherWithContext instead.
func NewRetryWatcher(initialResourceVersion string, watcherClient cache.Watcher) (*RetryWatcher, error) {
	return newRetryWatcher(context.Background(), initialResourceVersion, cache.ToWatcherWithContext(watcherClient), defaultTiming)
}

// NewRetryWatcherWithContext returns a RetryWatcher starting at
// initialResourceVersion, which must not be "" or "0" (a watch from there
// would not be resumable). It stops when ctx is canceled. The stall timeout
// (see WithStallTimeout) is taken from ctx.
func NewRetryWatcherWithContext(ctx context.Context, initialResourceVersion string, watcherClient cache.WatcherWithContext) (*RetryWatcher, error) {
	return newRetryWatcher(ctx, initialResourceVersion, watcherClient, defaultTiming)
}

func newRetryWatcher(ctx context.Context, initialResourceVersion string, source cache.WatcherWithContext, timing retryTiming) (*RetryWatcher, error) {
	if initialResourceVersion == "" || initialResourceVersion == "0" {
		return nil, fmt.Errorf("initial RV %q is not supported due to issues with underlying WATCH", initialResourceVersion)
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	rw := &RetryWatcher{
		source:     source,
		timing:     timing,
		resumeFrom: initialResourceVersion,
		events:     make(chan watch.Event),
		stopped:    make(chan struct{}),
		done:       make(chan struct{}),
		cancel:     cancel,
	}
	go rw.cancelOnStop(runCtx)
	go rw.run(runCtx, stallTimeoutFrom(ctx))
	return rw, nil
}

// cancelOnStop ends run's context at the first Stop. It returns when the
// context ends, which run guarantees on its way out.
func (rw *RetryWatcher) cancelOnStop(ctx context.Context) {
	select {
	case <-rw.stopped:
		rw.cancel(errors.New("RetryWatcher stopped"))
	case <-ctx.Done():
	}
}

// run opens one watch after another until an attempt is final or ctx ends,
// keeping starts at least restartDelay apart and honouring a server's
// Retry-After, then closes the result channel.
func (rw *RetryWatcher) run(ctx context.Context, stallTimeout time.Duration) {
	defer close(rw.done)
	defer close(rw.events)
	defer rw.cancel(nil)
	c := rw.timing.clock
	for {
		started := c.Now()
		result := rw.attempt(ctx, stallTimeout)
		if result.final {
			return
		}
		pause := max(rw.timing.restartDelay-c.Since(started), result.retryAfter)
		if pause <= 0 {
			if ctx.Err() != nil {
				return
			}
			continue
		}
		timer := c.NewTimer(pause)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
		}
	}
}

// attempt opens one watch from the resume point and forwards its events.
func (rw *RetryWatcher) attempt(ctx context.Context, stallTimeout time.Duration) attemptResult {
	w, err := rw.source.WatchWithContext(ctx, metav1.ListOptions{
		ResourceVersion:     rw.resumeFrom,
		AllowWatchBookmarks: true,
	})
	if err != nil {
		return rw.openFailed(ctx, err)
	}
	if w == nil {
		klog.FromContext(ctx).Error(nil, "Watch returned nil watcher")
		return attemptResult{}
	}
	defer w.Stop()
	if !watchstream.IsStream(w) {
		// Only a stream read from the network can stall; a watch the
		// program made itself (a fake in a test) is never stopped.
		stallTimeout = 0
	}
	return rw.forward(ctx, w.ResultChan(), stallTimeout)
}

// emit hands event to the consumer; false means the watcher is stopping.
func (rw *RetryWatcher) emit(ctx context.Context, event watch.Event) bool {
	select {
	case rw.events <- event:
		return true
	case <-ctx.Done():
		return false
	}
}

// ResultChan returns the events; it is closed when the watcher stops.
func (rw *RetryWatcher) ResultChan() <-chan watch.Event { return rw.events }

// Stop stops the watcher. It may be called more than once, also
// concurrently.
func (rw *RetryWatcher) Stop() {
	rw.stopOnce.Do(func() { close(rw.stopped) })
}

// Done is closed once the watcher has stopped.
func (rw *RetryWatcher) Done() <-chan struct{} { return rw.done }
