package cache

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// InformerSynced reports whether an informer has synced.
type InformerSynced func() bool

// syncedPollPeriod is how often WaitForCacheSync polls.
const syncedPollPeriod = 100 * time.Millisecond

// DoneChecker describes an activity that can be waited for without polling.
// Use IsDone for a non-blocking check.
type DoneChecker interface {
	// Name describes what is being waited for. It may be computed, so
	// avoid calling it on hot paths.
	Name() string

	// Done returns a channel that is closed when the activity completes.
	Done() <-chan struct{}
}

// IsDone reports, without blocking, whether checker's activity completed.
func IsDone(checker DoneChecker) bool {
	select {
	case <-checker.Done():
		return true
	default:
		return false
	}
}

// WaitFor blocks until every checker is done (true) or ctx is canceled
// (false). When what is non-empty, progress is logged at V(0) with the
// logger from ctx.
func WaitFor(ctx context.Context, what string, checkers ...DoneChecker) bool {
	logger := klog.FromContext(ctx)
	if what != "" {
		logger.Info("Waiting", "for", what)
	}
	for _, checker := range checkers {
		select {
		case <-checker.Done():
		case <-ctx.Done():
			if what != "" {
				pending := []string{}
				for _, c := range checkers {
					if !IsDone(c) {
						pending = append(pending, c.Name())
					}
				}
				logger.Info("Stopped waiting", "for", what, "pending", pending, "cause", context.Cause(ctx))
			}
			return false
		}
	}
	if what != "" {
		logger.Info("Done waiting", "for", what)
	}
	return true
}

// WaitForCacheSync polls until every cacheSync returns true (true) or
// stopCh is closed (false). Prefer WaitForNamedCacheSync.
func WaitForCacheSync(stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	ctx, cancel := contextForChannel(stopCh)
	defer cancel()
	return waitForCacheSync(ctx, cacheSyncs)
}

func waitForCacheSync(ctx context.Context, cacheSyncs []InformerSynced) bool {
	allSynced := func(context.Context) (bool, error) {
		for _, synced := range cacheSyncs {
			if !synced() {
				return false, nil
			}
		}
		return true, nil
	}
	err := wait.PollUntilContextCancel(ctx, syncedPollPeriod, true, allSynced)
	if err != nil {
		klog.FromContext(ctx).V(2).Info("Stop requested while waiting for caches to sync")
		return false
	}
	return true
}

// WaitForNamedCacheSync is WaitForCacheSync that logs, on behalf of
// controllerName, when waiting starts and how it ended.
func WaitForNamedCacheSync(controllerName string, stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	klog.Infof("Waiting for caches to sync for %s", controllerName)
	if !WaitForCacheSync(stopCh, cacheSyncs...) {
		klog.Errorf("unable to sync caches for %s", controllerName)
		return false
	}
	klog.Infof("Caches are synced for %s", controllerName)
	return true
}

// WaitForNamedCacheSyncWithContext is WaitForCacheSync with a context; the
// logger in ctx identifies the caller in its log messages.
func WaitForNamedCacheSyncWithContext(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	logger := klog.FromContext(ctx)
	logger.Info("Waiting for caches to sync")
	if !waitForCacheSync(ctx, cacheSyncs) {
		logger.Error(nil, "Unable to sync caches")
		return false
	}
	logger.Info("Caches are synced")
	return true
}

// contextForChannel returns a context canceled when stopCh is closed.
func contextForChannel(stopCh <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-stopCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// SyncResult summarizes the outcome of waiting for a set of informers.
type SyncResult struct {
	// Err is nil when every informer synced, otherwise why waiting stopped
	// (context.Cause of the context).
	Err error

	// Synced reports for each informer type whether it synced.
	Synced map[reflect.Type]bool
}

// AsError returns nil when Err is nil, otherwise an error that names the
// informers that did not sync, in sorted order, and wraps Err.
func (c SyncResult) AsError() error {
	if c.Err == nil {
		return nil
	}
	pending := make([]string, 0, len(c.Synced))
	for t, synced := range c.Synced {
		if !synced {
			pending = append(pending, t.String())
		}
	}
	sort.Strings(pending)
	return fmt.Errorf("failed to sync all caches: %s: %w", strings.Join(pending, ", "), c.Err)
}

// channelChecker is a DoneChecker around a fixed channel.
type channelChecker struct {
	name string
	ch   <-chan struct{}
}

func (c channelChecker) Name() string          { return c.name }
func (c channelChecker) Done() <-chan struct{} { return c.ch }
