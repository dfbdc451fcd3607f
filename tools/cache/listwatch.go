package cache

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/util/watchlist"
)

// Lister performs the initial list of a resource. Implementations should
// also implement ListerWithContext.
type Lister interface {
	// List returns a list object; its items are extracted and its
	// resourceVersion is where the following watch starts.
	//
	// Deprecated: use ListerWithContext.ListWithContext instead.
	List(options metav1.ListOptions) (runtime.Object, error)
}

// ListerWithContext performs the initial list of a resource.
type ListerWithContext interface {
	// ListWithContext returns a list object; its items are extracted and
	// its resourceVersion is where the following watch starts.
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
}

// ToListerWithContext returns l itself when it supports contexts, otherwise
// an adapter that ignores the context.
func ToListerWithContext(l Lister) ListerWithContext {
	return asOrAdapt(l, func(l Lister) ListerWithContext { return listerAdapter{l} })
}

// asOrAdapt returns v itself when it implements W and adapt(v) otherwise.
func asOrAdapt[V, W any](v V, adapt func(V) W) W {
	if w, ok := any(v).(W); ok {
		return w
	}
	return adapt(v)
}

type listerAdapter struct{ Lister }

func (l listerAdapter) ListWithContext(_ context.Context, options metav1.ListOptions) (runtime.Object, error) {
	return l.List(options)
}

// Watcher starts watches on a resource. Implementations should also
// implement WatcherWithContext.
type Watcher interface {
	// Watch starts a watch at the requested version. On error it must clean
	// up after itself (stopping any watch it created).
	//
	// Deprecated: use WatcherWithContext.WatchWithContext instead.
	Watch(options metav1.ListOptions) (watch.Interface, error)
}

// WatcherWithContext starts watches on a resource.
type WatcherWithContext interface {
	// WatchWithContext starts a watch at the requested version. On error it
	// must clean up after itself (stopping any watch it created).
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// ToWatcherWithContext returns w itself when it supports contexts,
// otherwise an adapter that ignores the context.
func ToWatcherWithContext(w Watcher) WatcherWithContext {
	return asOrAdapt(w, func(w Watcher) WatcherWithContext { return watcherAdapter{w} })
}

type watcherAdapter struct{ Watcher }

func (w watcherAdapter) WatchWithContext(_ context.Context, options metav1.ListOptions) (watch.Interface, error) {
	return w.Watch(options)
}

// ListerWatcher lists and watches a resource. Implementations should also
// implement ListerWatcherWithContext.
type ListerWatcher interface {
	Lister
	Watcher
}

// ListerWatcherWithContext lists and watches a resource.
type ListerWatcherWithContext interface {
	ListerWithContext
	WatcherWithContext
}

// ToListerWatcherWithContext returns lw itself when it supports contexts,
// otherwise an adapter that ignores the context. The adapter keeps
// reporting lw's watch-list support.
func ToListerWatcherWithContext(lw ListerWatcher) ListerWatcherWithContext {
	return asOrAdapt(lw, func(lw ListerWatcher) ListerWatcherWithContext {
		return listerWatcherAdapter{
			ListerWithContext:  ToListerWithContext(lw),
			WatcherWithContext: ToWatcherWithContext(lw),
			unsupported:        watchlist.DoesClientNotSupportWatchListSemantics(lw),
		}
	})
}

type listerWatcherAdapter struct {
	ListerWithContext
	WatcherWithContext
	unsupported bool
}

func (a listerWatcherAdapter) IsWatchListSemanticsUnSupported() bool { return a.unsupported }

// ListFunc lists resources.
//
// Deprecated: use ListWithContextFunc instead.
type ListFunc func(options metav1.ListOptions) (runtime.Object, error)

// ListWithContextFunc lists resources.
type ListWithContextFunc func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)

// WatchFunc watches resources.
//
// Deprecated: use WatchFuncWithContext instead.
type WatchFunc func(options metav1.ListOptions) (watch.Interface, error)

// WatchFuncWithContext watches resources.
type WatchFuncWithContext func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)

// ListWatch is a ListerWatcher (and ListerWatcherWithContext) made of
// functions. One of ListFunc and ListWithContextFunc must be set, and one of
// WatchFunc and WatchFuncWithContext; the context variants are preferred
// when a context is available.
type ListWatch struct {
	// Deprecated: use ListWithContext instead.
	ListFunc ListFunc
	// Deprecated: use WatchWithContext instead.
	WatchFunc WatchFunc

	ListWithContextFunc  ListWithContextFunc
	WatchFuncWithContext WatchFuncWithContext

	// DisableChunking makes Reflectors list without pagination.
	DisableChunking bool
}

var (
	_ ListerWatcher            = &ListWatch{}
	_ ListerWatcherWithContext = &ListWatch{}
)

// optionsCall is the context form of ListWatch's list and watch functions.
type optionsCall[R any] func(ctx context.Context, options metav1.ListOptions) (R, error)

// ignoringContext turns a deprecated function without context into an
// optionsCall; nil stays nil.
func ignoringContext[R any](fn func(options metav1.ListOptions) (R, error)) optionsCall[R] {
	if fn == nil {
		return nil
	}
	return func(_ context.Context, options metav1.ListOptions) (R, error) { return fn(options) }
}

// preferred returns first when it is set and second otherwise: each
// ListWatch method prefers the function of its own flavour.
func preferred[R any](first, second optionsCall[R]) optionsCall[R] {
	if first != nil {
		return first
	}
	return second
}

// List lists the resources.
//
// Deprecated: use ListWatchWithContext.ListWithContext instead.
func (lw *ListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	list := preferred(ignoringContext(lw.ListFunc), optionsCall[runtime.Object](lw.ListWithContextFunc))
	return list(context.Background(), options)
}

// ListWithContext lists the resources.
func (lw *ListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	list := preferred(optionsCall[runtime.Object](lw.ListWithContextFunc), ignoringContext(lw.ListFunc))
	return list(ctx, options)
}

// Watch watches the resources.
//
// Deprecated: use ListWatchWithContext.WatchWithContext instead.
func (lw *ListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	start := preferred(ignoringContext(lw.WatchFunc), optionsCall[watch.Interface](lw.WatchFuncWithContext))
	return start(context.Background(), options)
}

// WatchWithContext watches the resources.
func (lw *ListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	start := preferred(optionsCall[watch.Interface](lw.WatchFuncWithContext), ignoringContext(lw.WatchFunc))
	return start(ctx, options)
}

// listWatchWithSupport is a ListWatch that reports whether its client
// supports watch-list semantics.
type listWatchWithSupport struct {
	*ListWatch
	unsupported bool
}

func (lw *listWatchWithSupport) IsWatchListSemanticsUnSupported() bool { return lw.unsupported }

// ToListWatcherWithWatchListSemantics wraps lw so that Reflectors can tell
// whether client explicitly lacks watch-list support.
func ToListWatcherWithWatchListSemantics(lw *ListWatch, client any) ListerWatcher {
	return &listWatchWithSupport{ListWatch: lw, unsupported: watchlist.DoesClientNotSupportWatchListSemantics(client)}
}
