package cache

import (
	"context"
	"fmt"
	"reflect"
	"slices"
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
	done := false
	select {
	case <-checker.Done():
		done = true
	default:
	}
	return done
}

// WaitFor blocks until every checker is done (true) or ctx is canceled
// (false). When what is non-empty it logs, at V(0) with the logger from ctx
// and attributed to its caller, "Waiting" at the start, "Done waiting" with
// the instance name as each checker completes (in completion order; those
// already done in the order given), and "Timed out waiting" with the cause
// of ctx and the sorted names of the pending checkers if ctx ends first.
func WaitFor(ctx context.Context, what string, checkers ...DoneChecker) bool {
	// Every log call is made in this function itself, so that call depth 1
	// attributes it to WaitFor's caller.
	logger := klog.FromContext(ctx).WithCallDepth(1)
	logging := what != ""
	if logging {
		logger.Info("Waiting", "for", what)
	}
	pending := slices.Clone(checkers)
	for {
		var done []DoneChecker
		pending, done = splitDone(pending)
		if logging {
			for _, checker := range done {
				logger.Info("Done waiting", "for", what, "instance", checker.Name())
			}
		}
		if len(pending) == 0 {
			return true
		}
		if !awaitOne(ctx, pending) {
			if logging {
				logger.Info("Timed out waiting", "for", what, "cause", context.Cause(ctx), "instances", sortedNames(pending))
			}
			return false
		}
	}
}

// splitDone separates the checkers that are done, keeping the order of both
// parts.
func splitDone(checkers []DoneChecker) (pending, done []DoneChecker) {
	for _, checker := range checkers {
		if IsDone(checker) {
			done = append(done, checker)
		} else {
			pending = append(pending, checker)
		}
	}
	return pending, done
}

// awaitOne blocks until one of checkers is done (true) or ctx ends (false).
func awaitOne(ctx context.Context, checkers []DoneChecker) bool {
	cases := make([]reflect.SelectCase, 0, len(checkers)+1)
	cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())})
	for _, checker := range checkers {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(checker.Done())})
	}
	chosen, _, _ := reflect.Select(cases)
	return chosen != 0
}

// sortedNames returns the checkers' names in sorted order.
func sortedNames(checkers []DoneChecker) []string {
	names := make([]string, 0, len(checkers))
	for _, checker := range checkers {
		names = append(names, checker.Name())
	}
	sort.Strings(names)
	return names
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

// contextForChannel is wait.ContextForChannel with a cancel function, for
// callers that may finish before stopCh is closed.
func contextForChannel(stopCh <-chan struct{}) (context.Context, context.CancelFunc) {
	return context.WithCancel(wait.ContextForChannel(stopCh))
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
	notSynced := func(yield func(string) bool) {
		for informerType, synced := range c.Synced {
			if !synced && !yield(informerType.String()) {
				return
			}
		}
	}
	return fmt.Errorf("failed to sync all caches: %s: %w", strings.Join(slices.Sorted(notSynced), ", "), c.Err)
}

// channelChecker is a DoneChecker around a fixed channel.
type channelChecker struct {
	name string
	ch   <-chan struct{}
}

func (c channelChecker) Name() string          { return c.name }
func (c channelChecker) Done() <-chan struct{} { return c.ch }
