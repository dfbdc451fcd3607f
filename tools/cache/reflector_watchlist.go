package cache

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kubeclient/client-go/util/consistencydetector"
)

// watchList gets the initial state by streaming: a watch with
// sendInitialEvents=true whose events are collected in a temporary store
// until the bookmark annotated k8s.io/initial-events-end arrives; then the
// store's content is replaced with it. It returns the still-open watch to
// follow, or (nil, nil) when ctx was canceled. A stream that ends or stalls
// before its initial events are complete is started again; an error it
// cannot retry is returned, and the caller falls back to a list.
func (r *Reflector) watchList(ctx context.Context) (watch.Interface, error) {
	logger := klog.FromContext(ctx)
	var transformer TransformFunc
	var storeOpts []StoreOption
	if ts, ok := r.store.(TransformingStore); ok && ts.Transformer() != nil {
		transformer = ts.Transformer()
		storeOpts = append(storeOpts, WithTransformer(transformer))
	}
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		collected := NewStore(DeletionHandlingMetaNamespaceKeyFunc, storeOpts...)
		w, rv, err := r.streamInitialEvents(ctx, collected)
		switch {
		case errors.Is(err, errStopRequested):
			return nil, nil
		case errors.Is(err, errStreamEnded) || errors.Is(err, errWatchStalled):
			logger.V(4).Info("watch-list stream ended before the initial events were complete, retrying", "reflector", r.name, "type", r.typeDescription)
			continue
		case err != nil:
			if r.retryWatchList(ctx, err) {
				continue
			}
			return nil, err
		}
		r.versions.setUnavailable(false)
		if consistencydetector.IsDataConsistencyDetectionForWatchListEnabled() {
			consistencydetector.CheckDataConsistency(ctx, r.name, rv, r.listerWatcher.ListWithContext,
				consistencydetector.TransformFunc(transformer), metav1.ListOptions{}, collected.List)
		}
		if err := r.store.Replace(collected.List(), rv); err != nil {
			w.Stop()
			return nil, fmt.Errorf("unable to sync watch-list result: %w", err)
		}
		r.versions.reached(rv)
		return w, nil
	}
}

// streamInitialEvents opens one watch-list stream and applies its initial
// events to collected. On success it returns the open watch and the
// resource version the initial events end at; otherwise the watch is
// stopped and the error says why.
func (r *Reflector) streamInitialEvents(ctx context.Context, collected Store) (watch.Interface, string, error) {
	timeout := r.watchTimeoutSeconds()
	options := metav1.ListOptions{
		ResourceVersion:      r.versions.position().forWatchList(),
		AllowWatchBookmarks:  true,
		SendInitialEvents:    ptr.To(true),
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		TimeoutSeconds:       &timeout,
	}
	opened := r.clock.Now()
	w, err := r.listerWatcher.WatchWithContext(r.sharing.requestContext(ctx), options)
	if err != nil {
		return nil, "", err
	}
	stream := r.newWatchStream(w, collected, opened, nil)
	// The initial events come as Added events in no particular version
	// order; the stream's version counts from the first other event.
	rv, ordered := "", false
	for {
		event, err := stream.applyNext(ctx)
		if err != nil {
			stream.stop()
			return nil, "", err
		}
		ordered = ordered || event.eventType != watch.Added
		if ordered {
			rv = event.resourceVersion
		}
		if event.initialEventsEnd {
			return stream.detach(), rv, nil
		}
	}
}

// retryWatchList decides whether a failed watch-list is worth another
// try: after a backoff when the server is unreachable or throttling, at
// once with a consistent read when the version asked for is unavailable.
func (r *Reflector) retryWatchList(ctx context.Context, err error) bool {
	switch {
	case isWatchErrorRetriable(err):
		klog.FromContext(ctx).V(2).Info("watch-list failed - backing off", "reflector", r.name, "type", r.typeDescription, "err", err)
		select {
		case <-ctx.Done():
		case <-r.clock.After(r.delay()):
		}
		return true
	case isExpiredError(err) || isTooLargeResourceVersionError(err):
		r.versions.setUnavailable(true)
		return true
	}
	return false
}
