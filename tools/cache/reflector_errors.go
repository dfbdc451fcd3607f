package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// WatchErrorHandler is called with the error that ended a ListAndWatch;
// the reflector then backs off and retries. It should return quickly.
type WatchErrorHandler func(r *Reflector, err error)

// WatchErrorHandlerWithContext is WatchErrorHandler with a context.
type WatchErrorHandlerWithContext func(ctx context.Context, r *Reflector, err error)

// DefaultWatchErrorHandler logs err at a level that fits its kind.
func DefaultWatchErrorHandler(ctx context.Context, r *Reflector, err error) {
	logger := klog.FromContext(ctx)
	switch {
	case isExpiredError(err):
		// The watch was too old; the relist that follows is routine.
		logger.V(4).Info("Watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
	case err == io.EOF:
		// The server closed the watch normally.
	case err == io.ErrUnexpectedEOF:
		logger.V(1).Info("Watch closed with unexpected EOF", "reflector", r.name, "type", r.typeDescription, "err", err)
	default:
		utilruntime.HandleErrorWithContext(ctx, err, "Failed to watch", "reflector", r.name, "type", r.typeDescription)
	}
}

// setWatchErrorHandler replaces the handler; used by informers.
func (r *Reflector) setWatchErrorHandler(h WatchErrorHandlerWithContext) {
	r.handlerLock.Lock()
	defer r.handlerLock.Unlock()
	r.watchErrorHandler = h
}

func (r *Reflector) handleWatchError(ctx context.Context, err error) {
	r.handlerLock.Lock()
	h := r.watchErrorHandler
	r.handlerLock.Unlock()
	h(ctx, r, err)
}

// VeryShortWatchError reports a watch that closed within a second without
// delivering any event, which usually means something is wrong upstream.
type VeryShortWatchError struct {
	// Name identifies the reflector whose watch ended.
	Name string
}

// Error describes the short watch.
func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: Unexpected watch close - "+
		"watch lasted less than a second and no items received", e.Name)
}

// isExpiredError reports that the requested resource version is gone from
// the server's history. Servers before 1.18 said Gone rather than Expired.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// isTooLargeResourceVersionError reports that the requested resource
// version is newer than the server has seen yet.
func isTooLargeResourceVersionError(err error) bool {
	if apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		return true
	}
	// Servers before 1.18.6 said so only in words, in a timeout.
	return apierrors.IsTimeout(err) && statusSays(err, "Too large resource version")
}

// statusSays reports whether a detailed API status carries text in its
// message or as the message of one of its causes.
func statusSays(err error, text string) bool {
	var apiStatus apierrors.APIStatus
	if !errors.As(err, &apiStatus) {
		return false
	}
	status := apiStatus.Status()
	if status.Details == nil {
		return false
	}
	return strings.Contains(status.Message, text) ||
		slices.ContainsFunc(status.Details.Causes, func(c metav1.StatusCause) bool { return c.Message == text })
}

// isWatchErrorRetriable reports errors worth retrying the watch for
// without a relist: the server is unreachable or throttling.
func isWatchErrorRetriable(err error) bool {
	return utilnet.IsConnectionRefused(err) || apierrors.IsTooManyRequests(err)
}
