package sharding

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache"
	"github.com/kubeclient/client-go/util/watchlist"
)

// Mode says who filters a ListWatch's objects.
type Mode int32

const (
	// ModeUnknown: no list has been answered yet.
	ModeUnknown Mode = iota
	// ModeServer: the server echoed the selector in ListMeta.ShardInfo;
	// it filters lists and watches.
	ModeServer
	// ModeClient: the server ignored the selector (the ShardedListAndWatch
	// gate is off, or the server predates it); the ListWatch receives
	// every object and drops the others itself, with the same hash.
	ModeClient
)

func (m Mode) String() string {
	switch m {
	case ModeServer:
		return "server"
	case ModeClient:
		return "client"
	default:
		return "unknown"
	}
}

// modeState is the detected mode, shared by the ListWatches of one
// controller across re-shardings so the fallback is logged once.
type modeState struct {
	mode   atomic.Int32
	logged sync.Once
}

func (s *modeState) set(ctx context.Context, m Mode, why string) {
	if Mode(s.mode.Swap(int32(m))) == m {
		return
	}
	if m == ModeClient {
		s.logged.Do(func() {
			klog.FromContext(ctx).Info("The server does not filter by shard (ShardedListAndWatch off or unsupported); filtering on the client, every replica receives every object", "reason", why)
		})
	}
}

// ListWatch wraps a cache.ListerWatcher so that an informer built on it
// holds only the objects of one Selector. It sets ShardSelector on every
// list and watch. A list answer tells which side filters: the server
// echoes the selector in ListMeta.ShardInfo when it applied it. When it
// does not (the feature gate is off, an older server), ListWatch drops the
// other objects from lists and watch streams itself, logging once: the
// informer's content is the same, only the traffic is not. Before a watch
// whose mode is unknown (a watch-list informer starts with a watch), it
// asks once with a one-item list.
//
// A ListWatch's selector is fixed: to re-shard, build a new informer on a
// new ListWatch (Controller does).
type ListWatch struct {
	inner       cache.ListerWatcherWithContext
	unsupported bool
	sel         Selector
	wire        string
	state       *modeState
	dropped     atomic.Int64
}

var (
	_ cache.ListerWatcher            = &ListWatch{}
	_ cache.ListerWatcherWithContext = &ListWatch{}
)

// NewListWatch returns lw restricted to sel. sel must not be empty.
func NewListWatch(lw cache.ListerWatcher, sel Selector) (*ListWatch, error) {
	return newListWatch(lw, sel, &modeState{})
}

func newListWatch(lw cache.ListerWatcher, sel Selector, state *modeState) (*ListWatch, error) {
	if err := sel.validate(); err != nil {
		return nil, err
	}
	return &ListWatch{
		inner:       cache.ToListerWatcherWithContext(lw),
		unsupported: watchlist.DoesClientNotSupportWatchListSemantics(lw),
		sel:         sel,
		wire:        sel.String(),
		state:       state,
	}, nil
}

// Mode returns who filters, as last detected.
func (lw *ListWatch) Mode() Mode { return Mode(lw.state.mode.Load()) }

// Selector returns the selector lw applies.
func (lw *ListWatch) Selector() Selector { return lw.sel }

// Dropped returns how many objects lw dropped itself because they lie
// outside its selector.
func (lw *ListWatch) Dropped() int64 { return lw.dropped.Load() }

// IsWatchListSemanticsUnSupported passes on the wrapped ListerWatcher's
// answer.
func (lw *ListWatch) IsWatchListSemanticsUnSupported() bool { return lw.unsupported }

// List lists with the selector.
//
// Deprecated: use ListWithContext.
func (lw *ListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), options)
}

// Watch watches with the selector.
//
// Deprecated: use WatchWithContext.
func (lw *ListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), options)
}

// ListWithContext lists with the selector and drops the objects outside
// it when the server did not apply it.
func (lw *ListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	options.ShardSelector = lw.wire
	list, err := lw.inner.ListWithContext(ctx, options)
	if err != nil {
		return nil, err
	}
	echoed, ok, err := shardInfo(list)
	if err != nil {
		return nil, err
	}
	switch {
	case ok && echoed == lw.wire:
		lw.state.set(ctx, ModeServer, "")
	case ok:
		lw.state.set(ctx, ModeClient, fmt.Sprintf("the server applied selector %q, not %q", echoed, lw.wire))
	default:
		lw.state.set(ctx, ModeClient, "list answer without shardInfo")
	}
	// The server's filter and ours agree (the hash-compatibility test
	// checks it), so filtering a server-filtered list is a no-op; a
	// disagreement is logged, not hidden.
	dropped, err := lw.filterList(list)
	if err != nil {
		return nil, err
	}
	if dropped > 0 && lw.Mode() == ModeServer {
		klog.FromContext(ctx).Error(nil, "The server's shard filter returned objects outside the selector; dropped them", "count", dropped, "selector", lw.wire)
	}
	return list, nil
}

// WatchWithContext watches with the selector. When the server filters,
// its watch is returned as it is; otherwise a watch that drops the objects
// outside the selector.
func (lw *ListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	if lw.Mode() == ModeUnknown {
		probe := metav1.ListOptions{Limit: 1, ShardSelector: lw.wire}
		if _, err := lw.ListWithContext(ctx, probe); err != nil {
			return nil, err
		}
	}
	options.ShardSelector = lw.wire
	w, err := lw.inner.WatchWithContext(ctx, options)
	if err != nil || lw.Mode() == ModeServer {
		return w, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		switch e.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			ok, err := lw.sel.Matches(e.Object)
			if err == nil && !ok {
				lw.dropped.Add(1)
				return e, false
			}
		}
		return e, true
	}), nil
}

// filterList removes the items outside the selector from list. A list
// that holds only selected items is left untouched.
func (lw *ListWatch) filterList(list runtime.Object) (int, error) {
	outside := 0
	err := meta.EachListItem(list, func(item runtime.Object) error {
		ok, err := lw.sel.Matches(item)
		if err == nil && !ok {
			outside++
		}
		return err
	})
	if err != nil || outside == 0 {
		return 0, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return 0, err
	}
	kept := make([]runtime.Object, 0, len(items)-outside)
	for _, item := range items {
		if ok, _ := lw.sel.Matches(item); ok {
			kept = append(kept, item)
		}
	}
	lw.dropped.Add(int64(outside))
	return outside, meta.SetList(list, kept)
}

// shardInfo returns the selector a list answer echoes, and whether it
// echoes one.
func shardInfo(list runtime.Object) (string, bool, error) {
	if u, ok := list.(*unstructured.UnstructuredList); ok {
		sel, found, err := unstructured.NestedString(u.Object, "metadata", "shardInfo", "selector")
		if err != nil {
			return "", false, fmt.Errorf("sharding: reading shardInfo: %w", err)
		}
		return sel, found, nil
	}
	l, err := meta.ListAccessor(list)
	if err != nil {
		return "", false, err
	}
	withInfo, ok := l.(interface{ GetShardInfo() *metav1.ShardInfo })
	if !ok {
		return "", false, nil
	}
	info := withInfo.GetShardInfo()
	if info == nil {
		return "", false, nil
	}
	return info.Selector, true, nil
}
