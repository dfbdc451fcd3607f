package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	clientfeatures "github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/tools/pager"
	"github.com/kubeclient/client-go/util/consistencydetector"
	"github.com/kubeclient/client-go/util/watchlist"
)

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

	// shortWatchThreshold: a watch that closes sooner without events is
	// reported as a VeryShortWatchError.
	shortWatchThreshold = time.Second
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

// errStopRequested ends a watch loop because the context was canceled.
var errStopRequested = errors.New("stop requested")

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

	// paginatedResult remembers that a list at resourceVersion "0" came
	// back paginated, meaning the server does not serve it from a cache;
	// relists then keep paginating.
	paginatedResult bool

	// rvLock guards lastSyncResourceVersion and rvUnavailable.
	rvLock                  sync.RWMutex
	lastSyncResourceVersion string
	// rvUnavailable is set when the server answered "expired" or "too
	// large" for lastSyncResourceVersion; the next list is then a
	// consistent read at resourceVersion "".
	rvUnavailable bool

	// handlerLock guards watchErrorHandler.
	handlerLock       sync.Mutex
	watchErrorHandler WatchErrorHandlerWithContext

	useWatchList bool
	logger       klog.Logger

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

// ResourceVersionUpdater is implemented by stores that want to follow the
// reflector's current resource version.
type ResourceVersionUpdater interface {
	// UpdateResourceVersion receives every new resource version the
	// reflector reaches.
	UpdateResourceVersion(resourceVersion string)
}

// NewNamespaceKeyedIndexerAndReflector returns an Indexer keyed by
// MetaNamespaceKeyFunc with a namespace index, and a Reflector feeding it.
func NewNamespaceKeyedIndexerAndReflector(lw ListerWatcher, expectedType interface{}, resyncPeriod time.Duration) (indexer Indexer, reflector *Reflector) {
	indexer = NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	reflector = NewReflector(lw, expectedType, indexer, resyncPeriod)
	return indexer, reflector
}

// NewReflector returns a Reflector named after its caller's file:line.
// See NewReflectorWithOptions.
func NewReflector(lw ListerWatcher, expectedType interface{}, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{ResyncPeriod: resyncPeriod})
}

// NewNamedReflector returns a Reflector with the given name. See
// NewReflectorWithOptions.
func NewNamedReflector(name string, lw ListerWatcher, expectedType interface{}, store ReflectorStore, resyncPeriod time.Duration) *Reflector {
	return NewReflectorWithOptions(lw, expectedType, store, ReflectorOptions{Name: name, ResyncPeriod: resyncPeriod})
}

// NewReflectorWithOptions returns a Reflector that keeps store up to date
// with the objects lw lists and watches. Only objects of expectedType's
// type are stored, unless expectedType is nil. With a non-zero
// ResyncPeriod the store's Resync is called periodically whenever
// ShouldResync is nil or returns true.
func NewReflectorWithOptions(lw ListerWatcher, expectedType interface{}, store ReflectorStore, options ReflectorOptions) *Reflector {
	c := options.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	minTimeout := defaultMinWatchTimeout
	if options.MinWatchTimeout > minTimeout {
		minTimeout = options.MinWatchTimeout
	}
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
		listerWatcher:     ToListerWatcherWithContext(lw),
		store:             store,
		delay:             backoff.DelayWithReset(c, defaultBackoffReset),
		clock:             c,
		watchErrorHandler: DefaultWatchErrorHandler,
		expectedType:      reflect.TypeOf(expectedType),
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
	r.expectedGVK = expectedGVK(expectedType)

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

func expectedGVK(expectedType interface{}) *schema.GroupVersionKind {
	u, ok := expectedType.(*unstructured.Unstructured)
	if !ok {
		return nil
	}
	gvk := u.GroupVersionKind()
	if gvk.Empty() {
		return nil
	}
	return &gvk
}

// Name returns the reflector's name.
func (r *Reflector) Name() string { return r.name }

// TypeDescription returns the description of the watched type.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

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
	useList := !r.useWatchList
	if r.useWatchList {
		var err error
		w, err = r.watchList(ctx)
		if w == nil && err == nil {
			return nil // stopped
		}
		if err != nil {
			logger.V(4).Info("Data couldn't be fetched in watchlist mode. Falling back to regular list. This is expected if watchlist is not supported or disabled in kube-apiserver.", "err", err)
			useList = true
			w = nil
		}
	}
	if useList {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	logger.V(2).Info("Caches populated", "type", r.typeDescription, "reflector", r.name)
	return r.watchWithResync(ctx, w)
}

// list fetches the full state through the pager and replaces the store's
// content with it.
func (r *Reflector) list(ctx context.Context) error {
	options := metav1.ListOptions{ResourceVersion: r.relistResourceVersion()}
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return r.listerWatcher.ListWithContext(ctx, opts)
	})
	switch {
	case r.chunkingDisabled():
		p.PageSize = 0
	case r.WatchListPageSize != 0:
		p.PageSize = r.WatchListPageSize
	case r.paginatedResult:
		// The server paginates even "0" lists: keep the default size.
	case options.ResourceVersion != "" && options.ResourceVersion != "0":
		// An unpaginated list at a known resource version can be served
		// from the watch cache instead of etcd.
		p.PageSize = 0
	}
	// The list runs on its own goroutine so that stopping the reflector
	// does not wait for a ListerWatcher that ignores the context; a panic
	// in it is re-raised here.
	var (
		list      runtime.Object
		paginated bool
		err       error
	)
	listDone := make(chan struct{})
	listPanic := make(chan interface{}, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				listPanic <- p
				return
			}
			close(listDone)
		}()
		list, paginated, err = p.ListWithAlloc(ctx, options)
		if isExpiredError(err) || isTooLargeResourceVersionError(err) {
			// The version is unavailable: fall back to a consistent read so
			// the reflector makes progress.
			r.setRVUnavailable(true)
			list, paginated, err = p.ListWithAlloc(ctx, metav1.ListOptions{ResourceVersion: r.relistResourceVersion()})
		}
	}()
	select {
	case <-ctx.Done():
		return nil
	case p := <-listPanic:
		panic(p)
	case <-listDone:
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		r.logger.V(4).Info("List failed", "err", err)
		return fmt.Errorf("failed to list %v: %w", r.typeDescription, err)
	}
	if options.ResourceVersion == "0" && paginated {
		r.paginatedResult = true
	}
	r.setRVUnavailable(false)
	listMeta, err := meta.ListAccessor(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %#v: %v", list, err)
	}
	resourceVersion := listMeta.GetResourceVersion()
	items, err := meta.ExtractListWithAlloc(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %#v (%v)", list, err)
	}
	if err := r.syncWith(items, resourceVersion); err != nil {
		return fmt.Errorf("unable to sync list result: %v", err)
	}
	r.setLastSyncResourceVersion(resourceVersion)
	return nil
}

func (r *Reflector) chunkingDisabled() bool {
	switch lw := r.listerWatcher.(type) {
	case *ListWatch:
		return lw.DisableChunking
	case *listWatchWithSupport:
		return lw.DisableChunking
	}
	return false
}

// syncWith replaces the store's content with items.
func (r *Reflector) syncWith(items []runtime.Object, resourceVersion string) error {
	found := make([]interface{}, 0, len(items))
	for _, item := range items {
		found = append(found, item)
	}
	return r.store.Replace(found, resourceVersion)
}

// watchList streams the initial state through a watch with
// sendInitialEvents=true, collecting it in a temporary store until the
// bookmark annotated k8s.io/initial-events-end arrives, then replaces the
// store's content. It returns the still-open watch. (nil, nil) means ctx
// was canceled.
func (r *Reflector) watchList(ctx context.Context) (watch.Interface, error) {
	logger := klog.FromContext(ctx)
	var transformer TransformFunc
	var storeOpts []StoreOption
	if ts, ok := r.store.(TransformingStore); ok && ts.Transformer() != nil {
		transformer = ts.Transformer()
		storeOpts = append(storeOpts, WithTransformer(transformer))
	}
	retryable := func(err error) bool {
		if isWatchErrorRetriable(err) {
			logger.V(2).Info("watch-list failed - backing off", "reflector", r.name, "type", r.typeDescription, "err", err)
			select {
			case <-ctx.Done():
			case <-r.clock.After(r.delay()):
			}
			return true
		}
		if isExpiredError(err) || isTooLargeResourceVersionError(err) {
			r.setRVUnavailable(true)
			return true
		}
		return false
	}
	var (
		w               watch.Interface
		temporaryStore  Store
		resourceVersion string
	)
	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		resourceVersion = ""
		temporaryStore = NewStore(DeletionHandlingMetaNamespaceKeyFunc, storeOpts...)
		timeout := r.watchTimeoutSeconds()
		options := metav1.ListOptions{
			ResourceVersion:      r.rewatchResourceVersion(),
			AllowWatchBookmarks:  true,
			SendInitialEvents:    ptr.To(true),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			TimeoutSeconds:       &timeout,
		}
		start := r.clock.Now()
		var err error
		w, err = r.listerWatcher.WatchWithContext(ctx, options)
		if err != nil {
			if retryable(err) {
				continue
			}
			return nil, err
		}
		done, err := r.consumeWatch(ctx, start, w, temporaryStore, func(rv string, pastInitial bool) {
			if pastInitial {
				resourceVersion = rv
			}
		}, true, nil)
		if err != nil {
			w.Stop()
			if errors.Is(err, errStopRequested) {
				return nil, nil
			}
			if retryable(err) {
				continue
			}
			return nil, err
		}
		if done {
			break
		}
		// The stream ended cleanly before the initial-events-end bookmark
		// (for example the server closed it): start a fresh watch-list.
		w.Stop()
		logger.V(4).Info("watch-list stream ended before the initial events were complete, retrying", "reflector", r.name, "type", r.typeDescription)
	}
	r.setRVUnavailable(false)
	if consistencydetector.IsDataConsistencyDetectionForWatchListEnabled() {
		consistencydetector.CheckDataConsistency(ctx, r.name, resourceVersion, r.listerWatcher.ListWithContext,
			consistencydetector.TransformFunc(transformer), metav1.ListOptions{}, temporaryStore.List)
	}
	if err := r.store.Replace(temporaryStore.List(), resourceVersion); err != nil {
		w.Stop()
		return nil, fmt.Errorf("unable to sync watch-list result: %w", err)
	}
	r.setLastSyncResourceVersion(resourceVersion)
	return w, nil
}

func (r *Reflector) watchTimeoutSeconds() int64 {
	lo, hi := r.minWatchTimeout.Seconds(), r.maxWatchTimeout.Seconds()
	return int64(lo + rand.Float64()*(hi-lo))
}

// watchWithResync runs the periodic resync next to watch.
func (r *Reflector) watchWithResync(ctx context.Context, w watch.Interface) error {
	resyncErr := make(chan error, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.startResync(ctx, resyncErr)
	}()
	defer wg.Wait()
	defer cancel()
	return r.watch(ctx, w, resyncErr)
}

// startResync calls the store's Resync every resync period until ctx ends.
func (r *Reflector) startResync(ctx context.Context, resyncErr chan<- error) {
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
				resyncErr <- err
				return
			}
		}
		t.Reset(r.resyncPeriod)
	}
}

// watch follows watch events, reopening the watch from the last seen
// resource version whenever it ends cleanly. It returns nil when the
// reflector must relist (or was stopped), an error when a watch could not
// be opened.
func (r *Reflector) watch(ctx context.Context, w watch.Interface, resyncErr chan error) error {
	logger := klog.FromContext(ctx)
	retry := NewRetryWithDeadline(r.MaxInternalErrorRetryDuration, time.Minute, apierrors.IsInternalError, r.clock)
	defer func() {
		if w != nil {
			w.Stop()
		}
	}()
	for {
		if ctx.Err() != nil {
			return nil
		}
		start := r.clock.Now()
		if w == nil {
			timeout := r.watchTimeoutSeconds()
			options := metav1.ListOptions{
				ResourceVersion: r.LastSyncResourceVersion(),
				// Ask the server to end the watch after a while so that
				// clients spread across apiservers over time.
				TimeoutSeconds: &timeout,
				// Bookmarks keep the resource version fresh so that a
				// restarted watch is unlikely to be "too old".
				AllowWatchBookmarks: true,
			}
			var err error
			w, err = r.listerWatcher.WatchWithContext(ctx, options)
			if err != nil {
				if isWatchErrorRetriable(err) {
					logger.V(4).Info("Watch failed - backing off", "reflector", r.name, "type", r.typeDescription, "err", err)
					select {
					case <-ctx.Done():
						return nil
					case <-r.clock.After(r.delay()):
						continue
					}
				}
				return err
			}
		}
		_, err := r.consumeWatch(ctx, start, w, r.store, func(rv string, _ bool) {
			r.setLastSyncResourceVersion(rv)
			if u, ok := r.store.(ResourceVersionUpdater); ok {
				u.UpdateResourceVersion(rv)
			}
		}, false, resyncErr)
		w.Stop()
		w = nil
		retry.After(err)
		if err == nil {
			continue
		}
		if errors.Is(err, errStopRequested) {
			return nil
		}
		switch {
		case isExpiredError(err):
			// Relist at the last seen version: a list is "not older than"
			// that version, so it is still worth trying first.
			logger.V(4).Info("Watch closed", "reflector", r.name, "type", r.typeDescription, "err", err)
		case apierrors.IsTooManyRequests(err):
			logger.V(2).Info("Watch returned 429 - backing off", "reflector", r.name, "type", r.typeDescription)
			select {
			case <-ctx.Done():
				return nil
			case <-r.clock.After(r.delay()):
				continue
			}
		case apierrors.IsInternalError(err) && retry.ShouldRetry():
			logger.V(2).Info("Retrying watch after internal error", "reflector", r.name, "type", r.typeDescription, "err", err)
			continue
		default:
			logger.Info("Warning: watch ended with error", "reflector", r.name, "type", r.typeDescription, "err", err)
		}
		return nil
	}
}

// consumeWatch applies w's events to store until w ends, ctx ends, resync
// fails or (with stopAtInitialEnd) the initial-events-end bookmark
// arrives, in which case it returns true and leaves w open. Otherwise the
// caller stops w.
func (r *Reflector) consumeWatch(ctx context.Context, start time.Time, w watch.Interface, store ReflectorStore,
	setRV func(rv string, pastInitial bool), stopAtInitialEnd bool, resyncErr <-chan error) (bool, error) {
	events := 0
	pastInitial := false
	for {
		select {
		case <-ctx.Done():
			return false, errStopRequested
		case err := <-resyncErr:
			return false, err
		case event, ok := <-w.ResultChan():
			if !ok {
				if r.clock.Since(start) < shortWatchThreshold && events == 0 {
					return false, &VeryShortWatchError{Name: r.name}
				}
				return false, nil
			}
			if event.Type == watch.Error {
				return false, apierrors.FromObject(event.Object)
			}
			if r.expectedType != nil && reflect.TypeOf(event.Object) != r.expectedType {
				utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object type", "reflector", r.name, "expectedType", r.expectedType, "actualType", reflect.TypeOf(event.Object))
				continue
			}
			if r.expectedGVK != nil {
				if gvk := event.Object.GetObjectKind().GroupVersionKind(); gvk != *r.expectedGVK {
					utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object gvk", "reflector", r.name, "expectedGVK", r.expectedGVK, "actualGVK", gvk)
					continue
				}
			}
			m, err := meta.Accessor(event.Object)
			if err != nil {
				utilruntime.HandleErrorWithContext(ctx, err, "Unable to understand watch event", "reflector", r.name, "event", event)
				continue
			}
			rv := m.GetResourceVersion()
			initialEnd := false
			switch event.Type {
			case watch.Added:
				err = store.Add(event.Object)
			case watch.Modified:
				pastInitial = true
				err = store.Update(event.Object)
			case watch.Deleted:
				pastInitial = true
				err = store.Delete(event.Object)
			case watch.Bookmark:
				pastInitial = true
				initialEnd = m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true"
				if bs, ok := store.(ReflectorBookmarkStore); ok {
					err = bs.Bookmark(rv)
				}
			default:
				err = fmt.Errorf("unknown watch event type %q", event.Type)
			}
			if err != nil {
				utilruntime.HandleErrorWithContext(ctx, err, "Unable to apply watch event to store", "reflector", r.name, "event", event.Type)
			}
			setRV(rv, pastInitial)
			events++
			if stopAtInitialEnd && initialEnd {
				return true, nil
			}
		}
	}
}

// LastSyncResourceVersion returns the resource version the reflector last
// synced to. It is not synchronized with the store's content.
func (r *Reflector) LastSyncResourceVersion() string {
	r.rvLock.RLock()
	defer r.rvLock.RUnlock()
	return r.lastSyncResourceVersion
}

func (r *Reflector) setLastSyncResourceVersion(v string) {
	r.rvLock.Lock()
	defer r.rvLock.Unlock()
	r.lastSyncResourceVersion = v
}

func (r *Reflector) setRVUnavailable(unavailable bool) {
	r.rvLock.Lock()
	defer r.rvLock.Unlock()
	r.rvUnavailable = unavailable
}

// relistResourceVersion is the version to list at: "0" at first (any
// cached state will do), then the last synced version, or "" (a consistent
// read) after the server said that version is unavailable.
func (r *Reflector) relistResourceVersion() string {
	r.rvLock.RLock()
	defer r.rvLock.RUnlock()
	if r.rvUnavailable {
		return ""
	}
	if r.lastSyncResourceVersion == "" {
		return "0"
	}
	return r.lastSyncResourceVersion
}

// rewatchResourceVersion is the version a watch-list stream starts from.
func (r *Reflector) rewatchResourceVersion() string {
	r.rvLock.RLock()
	defer r.rvLock.RUnlock()
	if r.rvUnavailable {
		return ""
	}
	return r.lastSyncResourceVersion
}

func isExpiredError(err error) bool {
	// Servers before 1.18 answered 410 with reason Gone rather than Expired.
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

func isTooLargeResourceVersionError(err error) bool {
	if apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		return true
	}
	// Older servers reported it as a timeout with a telltale message.
	if !apierrors.IsTimeout(err) {
		return false
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	s := status.Status()
	if s.Details != nil {
		for _, cause := range s.Details.Causes {
			if cause.Message == "Too large resource version" {
				return true
			}
		}
	}
	return strings.Contains(s.Message, "Too large resource version")
}

// isWatchErrorRetriable reports errors worth retrying the watch for
// without a relist: the server is unreachable or throttling.
func isWatchErrorRetriable(err error) bool {
	return utilnet.IsConnectionRefused(err) || apierrors.IsTooManyRequests(err)
}
