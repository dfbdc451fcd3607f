package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

// attemptResult is how one underlying watch of a RetryWatcher ended.
type attemptResult struct {
	// final ends the RetryWatcher: the error was reported to the consumer,
	// retrying cannot help, or the watcher is stopping.
	final bool
	// retryAfter is how long the server asked the client to wait before
	// the next watch.
	retryAfter time.Duration
}

var (
	retryNow = attemptResult{}
	finished = attemptResult{final: true}
)

// logAsError, as an openFailure's verbosity, logs the failure as an error.
const logAsError = -1

// openFailure says what a failure to open a watch means, for the errors
// that matches accepts.
type openFailure struct {
	matches   func(error) bool
	verbosity int    // klog verbosity of the log line, or logAsError
	message   string // log message; "" logs nothing
	// permanent failures are reported to the consumer as an Error event
	// and end the RetryWatcher; all others are retried.
	permanent bool
}

// openFailures are tried in order; an error none of them matches is
// logged as an error and retried. A 410 while opening is retried like
// other transient errors: only a 410 on an established watch means the
// resume point is lost.
var openFailures = []openFailure{
	{matches: isEOF, message: ""},
	{matches: isUnexpectedEOF, verbosity: 1, message: "Watch closed with unexpected EOF"},
	{matches: isTransientNetworkError, verbosity: 5, message: "Watch failed"},
	{
		matches:   isAccessDenied,
		verbosity: logAsError,
		message:   "Watch failed: ensure the client has valid credentials and watch permissions on the resource",
		permanent: true,
	},
	{matches: isResumePointLost, verbosity: 4, message: "Watch failed"},
}

func isEOF(err error) bool           { return errors.Is(err, io.EOF) }
func isUnexpectedEOF(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }
func isTransientNetworkError(err error) bool {
	return net.IsProbableEOF(err) || net.IsTimeout(err)
}
func isAccessDenied(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err)
}
func isResumePointLost(err error) bool {
	return apierrors.IsGone(err) || apierrors.IsResourceExpired(err)
}

// openFailed decides what to do after the watch could not be opened.
func (rw *RetryWatcher) openFailed(ctx context.Context, err error) attemptResult {
	logger := klog.FromContext(ctx)
	rule := openFailure{verbosity: logAsError, message: "Watch failed"}
	for _, r := range openFailures {
		if r.matches(err) {
			rule = r
			break
		}
	}
	switch {
	case rule.message == "":
	case rule.verbosity == logAsError:
		logger.Error(err, rule.message)
	default:
		logger.V(rule.verbosity).Info(rule.message, "err", err)
	}
	if !rule.permanent {
		return retryNow
	}
	var apiStatus apierrors.APIStatus
	if errors.As(err, &apiStatus) {
		status := apiStatus.Status()
		if !rw.emit(ctx, watch.Event{Type: watch.Error, Object: &status}) {
			return retryNow // stopping; run notices the context
		}
	}
	return finished
}

// forward passes the events of one watch to the consumer and advances the
// resume point, until the watch ends, fails, stalls, or ctx ends.
func (rw *RetryWatcher) forward(ctx context.Context, events <-chan watch.Event, stallTimeout time.Duration) attemptResult {
	logger := klog.FromContext(ctx)
	stall := newStallDetector(rw.timing.clock, stallTimeout)
	defer stall.stop()
	for {
		select {
		case <-ctx.Done():
			return finished
		case <-stall.fired():
			if !stall.stalled() {
				continue
			}
			logger.Info("Watch stream stalled: no event or bookmark within the stall timeout; resuming",
				"resourceVersion", rw.resumeFrom, "stallTimeout", stallTimeout)
			return retryNow
		case event, open := <-events:
			if !open {
				logger.V(4).Info("Watch ended, re-creating the watcher", "resourceVersion", rw.resumeFrom)
				return retryNow
			}
			stall.activity()
			if result, next := rw.handle(ctx, event); !next {
				return result
			}
		}
	}
}

// handle processes one event; next reports whether to read the following
// one, result is the outcome of the watch otherwise.
func (rw *RetryWatcher) handle(ctx context.Context, event watch.Event) (result attemptResult, next bool) {
	switch event.Type {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
		rv, err := resourceVersionOf(event.Object)
		if err != nil {
			rw.reportError(ctx, err)
			return finished, false
		}
		if event.Type != watch.Bookmark && !rw.emit(ctx, event) {
			return finished, false
		}
		rw.resumeFrom = rv
		return attemptResult{}, true
	case watch.Error:
		return rw.serverError(ctx, event), false
	default:
		rw.reportError(ctx, fmt.Errorf("retryWatcher failed to recognize Event type %q", event.Type))
		return finished, false
	}
}

// resourceVersionOf returns the resource version an event moves the resume
// point to.
func resourceVersionOf(obj any) (string, error) {
	versioned, ok := obj.(interface{ GetResourceVersion() string })
	if !ok {
		return "", errors.New("retryWatcher: doesn't support resourceVersion")
	}
	rv := versioned.GetResourceVersion()
	if rv == "" {
		return "", fmt.Errorf("retryWatcher: object %#v doesn't support resourceVersion", obj)
	}
	return rv, nil
}

// serverError handles an Error event: a 410 means events were lost, which
// is reported to the consumer and ends the watcher; any other status is
// retried after the delay the server asked for.
func (rw *RetryWatcher) serverError(ctx context.Context, event watch.Event) attemptResult {
	var statusErr *apierrors.StatusError
	if !errors.As(apierrors.FromObject(event.Object), &statusErr) {
		klog.FromContext(ctx).Error(nil, "Received an error which is not *metav1.Status", "object", event.Object)
		return retryNow
	}
	status := statusErr.ErrStatus
	if status.Code == http.StatusGone {
		rw.emit(ctx, event)
		return finished
	}
	klog.FromContext(ctx).V(5).Info("Retrying after watch error", "code", status.Code, "reason", status.Reason)
	var result attemptResult
	if status.Details != nil {
		result.retryAfter = time.Duration(status.Details.RetryAfterSeconds) * time.Second
	}
	return result
}

// reportError delivers err to the consumer as an internal-error status.
func (rw *RetryWatcher) reportError(ctx context.Context, err error) {
	status := apierrors.NewInternalError(err).ErrStatus
	rw.emit(ctx, watch.Event{Type: watch.Error, Object: &status})
}
