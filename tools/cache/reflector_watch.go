package cache

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

// watchWithResync follows the watch (w, if not nil, is already open) while
// a goroutine of its own resyncs the store every resync period. Both have
// ended when it returns.
func (r *Reflector) watchWithResync(ctx context.Context, w watch.Interface) error {
	ctx, cancel := context.WithCancel(ctx)
	resyncErr := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.resyncEvery(ctx, resyncErr)
	}()
	defer wg.Wait()
	defer cancel()
	return r.watch(ctx, w, resyncErr)
}

// resyncEvery calls the store's Resync every resync period, when
// ShouldResync allows, until ctx ends or a Resync fails; the failure is
// sent on failed.
func (r *Reflector) resyncEvery(ctx context.Context, failed chan<- error) {
	if r.resyncPeriod == 0 {
		<-ctx.Done()
		return
	}
	t := r.clock.NewTimer(r.resyncPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		if r.ShouldResync == nil || r.ShouldResync() {
			r.logger.V(4).Info("Forcing resync", "reflector", r.name)
			if err := r.store.Resync(); err != nil {
				failed <- err
				return
			}
		}
		t.Reset(r.resyncPeriod)
	}
}

// watch follows watch events, reopening the watch from the last resource
// version it reached whenever it ends cleanly or stalls. It returns nil
// when the reflector must relist (or was stopped), an error when a watch
// could not be opened.
func (r *Reflector) watch(ctx context.Context, w watch.Interface, resyncErr <-chan error) error {
	logger := klog.FromContext(ctx)
	retry := NewRetryWithDeadline(r.MaxInternalErrorRetryDuration, time.Minute, apierrors.IsInternalError, r.clock)
	for ctx.Err() == nil {
		opened := r.clock.Now()
		// A watch handed over by watch-list is past its initial events.
		ordered := true
		if w == nil {
			var err error
			if w, ordered, err = r.openWatch(ctx); err != nil {
				if !isWatchErrorRetriable(err) {
					return err
				}
				logger.V(4).Info("Watch failed - backing off", "reflector", r.name, "type", r.typeDescription, "err", err)
				if !r.backOff(ctx) {
					return nil
				}
				continue
			}
		}
		err := r.follow(ctx, r.newWatchStream(w, r.store, opened, resyncErr), ordered)
		w = nil
		retry.After(err)
		switch {
		case err == nil:
			continue
		case errors.Is(err, errStopRequested):
			return nil
		case isExpiredError(err):
			// Relist at the last version reached: a list is "not older
			// than" that version, so it is still worth trying first.
			logger.V(4).Info("Watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
		case apierrors.IsTooManyRequests(err):
			logger.V(2).Info("Watch returned 429 - backing off", "reflector", r.name, "type", r.typeDescription)
			if !r.backOff(ctx) {
				return nil
			}
			continue
		case apierrors.IsInternalError(err) && retry.ShouldRetry():
			logger.V(2).Info("Retrying watch after internal error", "reflector", r.name, "type", r.typeDescription, "err", err)
			continue
		default:
			logger.Info("Warning: watch ended with error", "reflector", r.name, "type", r.typeDescription, "err", err)
		}
		return nil
	}
	if w != nil {
		w.Stop()
	}
	return nil
}

// openWatch opens a watch from the last resource version reached.
// ordered is false when that version is "" or "0": the server then starts
// with synthetic Added events in no version order.
func (r *Reflector) openWatch(ctx context.Context) (w watch.Interface, ordered bool, err error) {
	from := r.LastSyncResourceVersion()
	timeout := r.watchTimeoutSeconds()
	w, err = r.listerWatcher.WatchWithContext(r.sharing.requestContext(ctx), metav1.ListOptions{
		ResourceVersion: from,
		// Ask the server to end the watch after a while so that clients
		// spread across apiservers over time.
		TimeoutSeconds: &timeout,
		// Bookmarks keep the resource version fresh, so that a restarted
		// watch is unlikely to be "too old", and prove a quiet watch
		// alive (see reflector_stall.go).
		AllowWatchBookmarks: true,
	})
	return w, from != "" && from != "0", err
}

// follow applies the stream's events until it ends, and stops it. Each
// event's resource version becomes the reflector's, once the stream is
// ordered. A stream that ended cleanly or stalled gives nil: the watch is
// to be reopened where it left off.
func (r *Reflector) follow(ctx context.Context, stream *watchStream, ordered bool) error {
	defer stream.stop()
	for {
		event, err := stream.applyNext(ctx)
		if errors.Is(err, errStreamEnded) || errors.Is(err, errWatchStalled) {
			return nil
		}
		if err != nil {
			return err
		}
		ordered = ordered || event.eventType != watch.Added
		if ordered {
			r.reachedVersion(event.resourceVersion)
		}
	}
}

// backOff waits for the next backoff delay; false means ctx ended first.
func (r *Reflector) backOff(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-r.clock.After(r.delay()):
		return true
	}
}

// watchTimeoutSeconds picks a server-side timeout for the next watch,
// uniformly between the minimum and maximum.
func (r *Reflector) watchTimeoutSeconds() int64 {
	lo, hi := r.minWatchTimeout.Seconds(), r.maxWatchTimeout.Seconds()
	return int64(lo + rand.Float64()*(hi-lo))
}
