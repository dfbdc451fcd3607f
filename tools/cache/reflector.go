package cache

import (
	"context"
	"fmt"
	"math"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	clientfeatures "github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/util/watchlist"
)

// The Reflector is split by mode, one file each:
//   - reflector.go: the type, its options and the lifecycle (Run,
//     ListAndWatch), which picks how to get the initial state;
//   - reflector_list.go: the initial state by a (paginated) LIST;
//   - reflector_watchlist.go: the initial state by a watch-list stream;
//   - reflector_watch.go: following the watch, reopening it, resyncing;
//   - reflector_events.go: reading one watch stream and applying its
//     events to a store, the step every mode shares;
//   - reflector_stall.go: detecting a watch stream that went silent;
//   - reflector_version.go: where the reflector is in the resource's
//     history (resource versions);
//   - reflector_errors.go: error handlers and error classification.
//
// Goroutines: RunWithContext runs on the caller's goroutine and calls
// ListAndWatchWithContext in a loop. A list runs on a goroutine of its own
// (so that a ListerWatcher ignoring its context cannot hold up a stop) and
// the periodic resync runs next to the watch; both end before
// ListAndWatchWithContext returns.

const (
	// defaultMinWatchTimeout is the shortest server-side watch timeout the
	// Reflector asks for; each watch picks a random one up to twice that.
	defaultMinWatchTimeout = 5 * time.Minute

	// Retry backoff after a failed or ended ListAndWatch.
	defaultBackoffInit   = 800 * time.Millisecond
	defaultBackoffMax    = 30 * time.Second
	defaultBackoffReset  = 2 * time.Minute
	defaultBackoffFactor = 2.0
	defaultBackoffJitter = 1.0
)

// defaultBackoff returns the backoff used when ReflectorOptions.Backoff is
// nil. It is a variable so that package tests can speed reflectors up.
var defaultBackoff = func() wait.Backoff {
	return wait.Backoff{
		Duration: defaultBackoffInit,
		Cap:      defaultBackoffMax,
		Steps:    int(math.Ceil(float64(defaultBackoffMax) / float64(defaultBackoffInit))),
		Factor:   defaultBackoffFactor,
		Jitter:   defaultBackoffJitter,
	}
}

// Reflector keeps a ReflectorStore in step with one resource on the server:
// it lists (or streams, with watch-list) the current state, replaces the
// store's content with it and then applies watch events, relisting when
// the watch cannot be resumed.
type Reflector struct {
	// name identifies the reflector in logs; by default the file:line
	// that created it.
	name            string
	typeDescription string
	// expectedType and expectedGVK, when set, filter watch events.
	expectedType reflect.Type
	expectedGVK  *schema.GroupVersionKind

	store         ReflectorStore
	listerWatcher ListerWatcherWithContext

	// delay returns the next backoff between ListAndWatch attempts.
	delay        wait.DelayFunc
	resyncPeriod time.Duration
	clock        clock.Clock

	minWatchTimeout time.Duration
	maxWatchTimeout time.Duration
	// stallTimeout is how long a watch may stay silent before it is
	// abandoned and resumed; zero disables the check. See
	// SetWatchStallTimeout.
	stallTimeout time.Duration
	// stallClock runs the stall timers: the real clock, or nil (no stall
	// detection) when the caller gave the reflector a clock of its own,
	// as tests do to control time; see reflector_stall.go.
	stallClock clock.Clock
	health     *watchHealth

	// paginatedResult remembers that a list at resourceVersion "0" came
	// back paginated, meaning the server does not serve it from a cache;
	// relists then keep paginating. Only the ListAndWatch goroutine uses
	// it.
	paginatedResult bool

	// versions is the reflector's position in the resource's history.
	versions resourceVersions

	// handlerLock guards watchErrorHandler.
	handlerLock       sync.Mutex
	watchErrorHandler WatchErrorHandlerWithContext

	useWatchList bool
	logger       klog.Logger

	// sharing, given by informers, says how the objects of its requests
	// are decoded; see cacheSharing.
	sharing *cacheSharing

	// WatchListPageSize sets the page size of lists and relists. When zero,
	// lists at resourceVersion "" or "0" use the pager's default page size
	// and lists at any other version are not paginated, so that the
	// apiserver can answer them from its watch cache. Paginated lists are
	// read from etcd, which is far more expensive: set this with care.
	WatchListPageSize int64
	// ShouldResync is asked every resync period; the store is resynced
	// when it is nil or returns true.
	ShouldResync func() bool
	// MaxInternalErrorRetryDuration bounds how long watches that fail with
	// internal server errors are reopened without relisting.
	MaxInternalErrorRetryDuration time.Duration
}

// ReflectorOptions configure NewReflectorWithOptions.
type ReflectorOptions struct {
	// Logger replaces klog.Background(); the reflector's name is appended
	// to it.
	Logger *klog.Logger

	// Name identifies the reflector; by default the file:line that
	// created it.
	Name string

	// TypeDescription describes the watched type in logs; by default it is
	// derived from the expected type.
	TypeDescription string

	// ResyncPeriod is how often the store is resynced; zero disables it.
	ResyncPeriod time.Duration

	// MinWatchTimeout is the shortest watch timeout to request. Values
	// below five minutes are raised to five minutes.
	MinWatchTimeout time.Duration

	// Clock lets tests control time; nil means the real clock.
	Clock clock.Clock

	// Backoff replaces the default exponential backoff between attempts.
	Backoff *wait.Backoff
}

// NewNamespaceKeyedIndexerAndReflector returns an Indexer keyed by
// MetaNamespaceKeyFunc with a namespace index, and a Reflector feeding it.
func NewNamespaceKeyedIndexerAndReflector(lw ListerWatcher, expectedType interface{}, resyncPeriod time.Duration) (indexer Indexer, reflector *Reflector) {
	indexer = NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	return indexer, NewNamedReflector("", lw, expectedType, indexer, resyncPeriod)
}

// NewNamedReflector returns a Reflector with the given name; an empty name
// stands for the file:line of the caller outside this package. See
// NewReflectorWithOptions.
func NewNamedReflector(name string, lw ListerWatcher, expectedType interface{}, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// NewReflector returns a Reflector named after its caller's file:line.
// See NewReflectorWithOptions.
func NewReflector(lw ListerWatcher, expectedType interface{}, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewNamedReflector("", lw, expectedType, store, resyncPeriod)
}

// NewReflectorWithOptions returns a Reflector that keeps store up to date
// with the objects lw lists and watches. Only objects of expectedType's
// type are stored, unless expectedType is nil. With a non-zero
// ResyncPeriod the store's Resync is called periodically whenever
// ShouldResync is nil or returns true. A watch that stays silent longer
// than the watch stall timeout (see SetWatchStallTimeout) is abandoned and
// resumed.
func NewReflectorWithOptions(lw ListerWatcher, expectedType interface{}, store ReflectorStore, options ReflectorOptions) *Reflector {
	return newReflector(lw, expectedType, store, options, nil)
}

// newReflector is NewReflectorWithOptions for an informer's controller,
// which also says how the objects of the reflector's requests are shared
// (nil: not at all).
func newReflector(lw ListerWatcher, expectedType interface{}, store ReflectorStore, options ReflectorOptions, sharing *cacheSharing) *Reflector {
	c := options.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	minTimeout := max(options.MinWatchTimeout, defaultMinWatchTimeout)
	backoff := options.Backoff
	if backoff == nil {
		b := defaultBackoff()
		backoff = &b
	}
	r := &Reflector{
		name:              options.Name,
		typeDescription:   options.TypeDescription,
		resyncPeriod:      options.ResyncPeriod,
		minWatchTimeout:   minTimeout,
		maxWatchTimeout:   2 * minTimeout,
		stallTimeout:      currentWatchStallTimeout(),
		listerWatcher:     ToListerWatcherWithContext(lw),
		store:             store,
		delay:             backoff.DelayWithReset(c, defaultBackoffReset),
		clock:             c,
		stallClock:        stallClockFor(c),
		watchErrorHandler: DefaultWatchErrorHandler,
		expectedType:      reflect.TypeOf(expectedType),
		expectedGVK:       expectedGVK(expectedType),
		sharing:           sharing,
	}
	if r.name == "" {
		r.name = callerName()
	}
	logger := klog.Background()
	if options.Logger != nil {
		logger = *options.Logger
	}
	r.logger = klog.LoggerWithName(logger, r.name)
	if r.typeDescription == "" {
		r.typeDescription = describeType(expectedType)
	}
	r.health = newWatchHealth(r.name, reflectorMetrics())

	r.useWatchList = clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient)
	if r.useWatchList && watchlist.DoesClientNotSupportWatchListSemantics(lw) {
		r.logger.V(2).Info("The ListerWatcher does not support watch-list semantics; using list and watch", "feature", clientfeatures.WatchListClient)
		r.useWatchList = false
	}
	return r
}

// callerName returns file:line of the nearest caller outside this package,
// the runtime and the testing package.
func callerName() string {
	pcs := make([]uintptr, 32)
	n := goruntime.Callers(3, pcs)
	frames := goruntime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		skip := strings.Contains(f.Function, "/tools/cache.") ||
			strings.HasPrefix(f.Function, "runtime.") ||
			strings.HasPrefix(f.Function, "testing.")
		if !skip && f.File != "" {
			file := f.File
			// Keep the last two path elements, enough to be recognisable.
			if i := strings.LastIndex(file, "/"); i >= 0 {
				if j := strings.LastIndex(file[:i], "/"); j >= 0 {
					file = file[j+1:]
				}
			}
			return fmt.Sprintf("%s:%d", file, f.Line)
		}
		if !more {
			return "???"
		}
	}
}

func describeType(expectedType interface{}) string {
	if expectedType == nil {
		return "<unspecified>"
	}
	if gvk := expectedGVK(expectedType); gvk != nil {
		return gvk.String()
	}
	return reflect.TypeOf(expectedType).String()
}

// expectedGVK is the kind an unstructured example object names, if any:
// watch events of other kinds are then skipped.
func expectedGVK(expectedType interface{}) *schema.GroupVersionKind {
	if u, ok := expectedType.(*unstructured.Unstructured); ok {
		if gvk := u.GroupVersionKind(); !gvk.Empty() {
			return &gvk
		}
	}
	return nil
}

// Name returns the reflector's name.
func (r *Reflector) Name() string { return r.name }

// TypeDescription returns the description of the watched type.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

// Run calls ListAndWatch repeatedly, with backoff, until stopCh is closed.
func (r *Reflector) Run(stopCh <-chan struct{}) {
	ctx, cancel := contextForChannel(stopCh)
	defer cancel()
	r.RunWithContext(ctx)
}

// RunWithContext calls ListAndWatch repeatedly, with backoff, until ctx is
// canceled.
func (r *Reflector) RunWithContext(ctx context.Context) {
	logger := klog.FromContext(ctx)
	logger.V(3).Info("Starting reflector", "type", r.typeDescription, "resyncPeriod", r.resyncPeriod, "reflector", r.name)
	for {
		if err := r.ListAndWatchWithContext(ctx); err != nil {
			r.handleWatchError(ctx, err)
		}
		select {
		case <-ctx.Done():
			logger.V(3).Info("Stopping reflector", "type", r.typeDescription, "resyncPeriod", r.resyncPeriod, "reflector", r.name)
			return
		case <-r.clock.After(r.delay()):
		}
	}
}

// ListAndWatch is ListAndWatchWithContext until stopCh is closed.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	ctx, cancel := contextForChannel(stopCh)
	defer cancel()
	return r.ListAndWatchWithContext(ctx)
}

// ListAndWatchWithContext gets the current state (by a watch-list stream
// when possible, by a paginated list otherwise), replaces the store's
// content with it and then follows the watch from that resource version.
// It returns an error only when it could not get as far as watching.
func (r *Reflector) ListAndWatchWithContext(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	logger.V(3).Info("Listing and watching", "type", r.typeDescription, "reflector", r.name)
	var w watch.Interface
	if r.useWatchList {
		var err error
		w, err = r.watchList(ctx)
		switch {
		case err != nil:
			logger.V(4).Info("Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver.", "err", err)
			w = nil
		case w == nil:
			return nil // stopped
		}
	}
	if w == nil {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	logger.V(2).Info("Caches populated", "type", r.typeDescription, "reflector", r.name)
	return r.watchWithResync(ctx, w)
}
