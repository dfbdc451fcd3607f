package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache"
)

// minRestartDelay is the least time between the starts of two watches.
const minRestartDelay = time.Second

// resourceVersionGetter is what RetryWatcher needs from event objects.
type resourceVersionGetter interface {
	GetResourceVersion() string
}

// RetryWatcher is a watch.Interface that survives the underlying watch
// ending (API or etcd timeouts, dropped connections): it reopens the watch
// from the last resource version it delivered, so the consumer sees every
// event exactly once and in order. It cannot survive the server no longer
// having that resource version (410 Gone): it then delivers the error
// event and stops. Use an informer when that must be recovered from.
type RetryWatcher struct {
	lastResourceVersion string
	watcherClient       cache.WatcherWithContext
	resultChan          chan watch.Event
	stopChan            chan struct{}
	doneChan            chan struct{}
	minRestartDelay     time.Duration
	cancel              func(error)
}

// NewRetryWatcher returns a RetryWatcher starting at
// initialResourceVersion, which must not be "" or "0".
//
// Deprecated: use NewRetryWatcherWithContext instead.
func NewRetryWatcher(initialResourceVersion string, watcherClient cache.Watcher) (*RetryWatcher, error) {
	return newRetryWatcher(context.Background(), initialResourceVersion, cache.ToWatcherWithContext(watcherClient), minRestartDelay)
}

// NewRetryWatcherWithContext returns a RetryWatcher starting at
// initialResourceVersion, which must not be "" or "0" (a watch from there
// would not be resumable). It stops when ctx is canceled.
func NewRetryWatcherWithContext(ctx context.Context, initialResourceVersion string, watcherClient cache.WatcherWithContext) (*RetryWatcher, error) {
	return newRetryWatcher(ctx, initialResourceVersion, watcherClient, minRestartDelay)
}

func newRetryWatcher(ctx context.Context, initialResourceVersion string, watcherClient cache.WatcherWithContext, minRestartDelay time.Duration) (*RetryWatcher, error) {
	switch initialResourceVersion {
	case "", "0":
		return nil, fmt.Errorf("initial RV %q is not supported due to issues with underlying WATCH", initialResourceVersion)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	rw := &RetryWatcher{
		lastResourceVersion: initialResourceVersion,
		watcherClient:       watcherClient,
		stopChan:            make(chan struct{}),
		doneChan:            make(chan struct{}),
		resultChan:          make(chan watch.Event),
		minRestartDelay:     minRestartDelay,
		cancel:              cancel,
	}
	go rw.receive(ctx)
	return rw, nil
}

// send delivers event unless the watcher is stopped first.
func (rw *RetryWatcher) send(ctx context.Context, event watch.Event) bool {
	select {
	case rw.resultChan <- event:
		return true
	case <-ctx.Done():
		return false
	}
}

func (rw *RetryWatcher) sendError(ctx context.Context, err error) {
	status := apierrors.NewInternalError(err).ErrStatus
	rw.send(ctx, watch.Event{Type: watch.Error, Object: &status})
}

// doReceive runs one underlying watch. It reports whether the
// RetryWatcher is finished and, if not, how long to wait before the next
// attempt.
func (rw *RetryWatcher) doReceive(ctx context.Context) (bool, time.Duration) {
	logger := klog.FromContext(ctx)
	w, err := rw.watcherClient.WatchWithContext(ctx, metav1.ListOptions{
		ResourceVersion:     rw.lastResourceVersion,
		AllowWatchBookmarks: true,
	})
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		return false, 0
	case errors.Is(err, io.ErrUnexpectedEOF):
		logger.V(1).Info("Watch closed with unexpected EOF", "err", err)
		return false, 0
	case net.IsProbableEOF(err) || net.IsTimeout(err):
		logger.V(5).Info("Watch failed", "err", err)
		return false, 0
	case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
		// Retrying cannot help: report the status and stop.
		logger.Error(err, "Watch failed: ensure the client has valid credentials and watch permissions on the resource")
		var status apierrors.APIStatus
		if errors.As(err, &status) {
			s := status.Status()
			if !rw.send(ctx, watch.Event{Type: watch.Error, Object: &s}) {
				// Stopping; let the caller notice.
				return false, 0
			}
		}
		return true, 0
	case apierrors.IsGone(err) || apierrors.IsResourceExpired(err):
		// A failure to establish the watch is retried, like other
		// transient errors; only a 410 received on an established watch
		// ends the RetryWatcher.
		logger.V(4).Info("Watch failed", "err", err)
		return false, 0
	default:
		logger.Error(err, "Watch failed")
		return false, 0
	}
	if w == nil {
		logger.Error(nil, "Watch returned nil watcher")
		return false, 0
	}
	defer w.Stop()
	ch := w.ResultChan()
	for {
		select {
		case <-ctx.Done():
			return true, 0
		case event, ok := <-ch:
			if !ok {
				logger.V(4).Info("Watch ended, re-creating the watcher", "resourceVersion", rw.lastResourceVersion)
				return false, 0
			}
			switch event.Type {
			case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
				obj, ok := event.Object.(resourceVersionGetter)
				if !ok {
					rw.sendError(ctx, errors.New("retryWatcher: doesn't support resourceVersion"))
					return true, 0
				}
				rv := obj.GetResourceVersion()
				if rv == "" {
					rw.sendError(ctx, fmt.Errorf("retryWatcher: object %#v doesn't support resourceVersion", event.Object))
					return true, 0
				}
				if event.Type != watch.Bookmark && !rw.send(ctx, event) {
					return true, 0
				}
				rw.lastResourceVersion = rv
			case watch.Error:
				var statusErr *apierrors.StatusError
				if !errors.As(apierrors.FromObject(event.Object), &statusErr) {
					logger.Error(nil, "Received an error which is not *metav1.Status", "object", event.Object)
					return false, 0
				}
				status := statusErr.ErrStatus
				delay := time.Duration(0)
				if status.Details != nil {
					delay = time.Duration(status.Details.RetryAfterSeconds) * time.Second
				}
				if status.Code == http.StatusGone {
					// The resource version is gone: resuming would skip
					// events, so report it and stop.
					rw.send(ctx, event)
					return true, 0
				}
				logger.V(5).Info("Retrying after watch error", "code", status.Code, "reason", status.Reason)
				return false, delay
			default:
				rw.sendError(ctx, fmt.Errorf("retryWatcher failed to recognize Event type %q", event.Type))
				return true, 0
			}
		}
	}
}

// receive runs watches until finished or stopped, then closes the result
// channel.
func (rw *RetryWatcher) receive(ctx context.Context) {
	defer close(rw.doneChan)
	defer close(rw.resultChan)
	defer rw.cancel(nil)
	go func() {
		select {
		case <-rw.stopChan:
			rw.cancel(errors.New("RetryWatcher stopped"))
		case <-ctx.Done():
		}
	}()
	for {
		start := time.Now()
		done, retryAfter := rw.doReceive(ctx)
		if done {
			return
		}
		wait := rw.minRestartDelay - time.Since(start)
		if retryAfter > wait {
			wait = retryAfter
		}
		if wait <= 0 {
			if ctx.Err() != nil {
				return
			}
			continue
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// ResultChan returns the events; it is closed when the watcher stops.
func (rw *RetryWatcher) ResultChan() <-chan watch.Event { return rw.resultChan }

// Stop stops the watcher. It may be called more than once.
func (rw *RetryWatcher) Stop() {
	select {
	case <-rw.stopChan:
	default:
		close(rw.stopChan)
	}
}

// Done is closed once the watcher has stopped.
func (rw *RetryWatcher) Done() <-chan struct{} { return rw.doneChan }
