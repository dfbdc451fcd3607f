package cache

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	clientfeatures "github.com/kubeclient/client-go/features"
)

// Config configures a low-level Controller.
type Config struct {
	// Queue receives the Reflector's output; Process gets what it pops.
	Queue

	// ListerWatcher lists and watches the objects.
	ListerWatcher

	// Process handles one popped item.
	Process ProcessFunc

	// ProcessBatch handles a batch of popped deltas and returns a
	// TransactionError if only some were processed. It is used only when
	// set, when Queue implements QueueWithBatch and when the
	// InOrderInformersBatchProcess feature is enabled; otherwise Process
	// handles every item.
	ProcessBatch ProcessBatchFunc

	// ObjectType is an example object of the handled type.
	ObjectType runtime.Object

	// ObjectDescription describes the type in logs.
	ObjectDescription string

	// FullResyncPeriod is how often ShouldResync is consulted.
	FullResyncPeriod time.Duration

	// MinWatchTimeout is the shortest watch timeout to request; values
	// below five minutes (the default) are raised to five minutes.
	MinWatchTimeout time.Duration

	// ShouldResync decides, every FullResyncPeriod, whether to resync the
	// queue; nil means always.
	ShouldResync ShouldResyncFunc

	// WatchErrorHandler is called when ListAndWatch fails. Code that logs
	// with a context should set WatchErrorHandlerWithContext instead.
	WatchErrorHandler WatchErrorHandler

	// WatchErrorHandlerWithContext is called when ListAndWatch fails and
	// WatchErrorHandler is not set.
	WatchErrorHandlerWithContext WatchErrorHandlerWithContext

	// WatchListPageSize is the page size the Reflector lists with; see
	// Reflector.WatchListPageSize.
	WatchListPageSize int64
}

// ShouldResyncFunc tells a Reflector whether to resync now; a shared
// informer uses it to honour per-handler resync periods.
type ShouldResyncFunc func() bool

// Controller runs a Reflector into a Queue and processes what it pops.
type Controller interface {
	// RunWithContext runs the Reflector and the processing loop until ctx
	// is canceled. It blocks and may be called only once.
	RunWithContext(ctx context.Context)

	// Run is RunWithContext with a stop channel. Code that logs with a
	// context should call RunWithContext.
	Run(stopCh <-chan struct{})

	// HasSynced delegates to the queue.
	HasSynced() bool

	// HasSyncedChecker delegates to the queue.
	HasSyncedChecker() DoneChecker

	// LastSyncResourceVersion delegates to the Reflector, or is "" before
	// it exists.
	LastSyncResourceVersion() string
}

// controller implements Controller. Its fields other than reflector are
// fixed at construction (newController).
type controller struct {
	config Config
	// clock runs the reflector's timers.
	clock clock.Clock
	// sharing says how the reflector's requests are decoded and is
	// counted as running while the controller runs; see cacheSharing.
	sharing *cacheSharing

	// reflectorLock guards reflector.
	reflectorLock sync.RWMutex
	reflector     *Reflector
}

// controllerOptions are a controller's settings beyond its Config; only
// this package's informers set them.
type controllerOptions struct {
	// clock runs the reflector's timers; nil is the real clock.
	clock clock.Clock
	// sharing is how the informer shares the objects entering its cache;
	// nil shares nothing.
	sharing *cacheSharing
}

// New returns a Controller for c.
func New(c *Config) Controller {
	return newController(c, controllerOptions{})
}

// newController returns a controller for c with the given options.
func newController(c *Config, opts controllerOptions) *controller {
	clk := opts.clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &controller{config: *c, clock: clk, sharing: opts.sharing}
}

// Run runs the controller until stopCh is closed.
func (c *controller) Run(stopCh <-chan struct{}) {
	ctx, cancel := contextForChannel(stopCh)
	defer cancel()
	c.RunWithContext(ctx)
}

// RunWithContext runs the controller until ctx is canceled.
func (c *controller) RunWithContext(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	defer c.sharing.run()()
	go func() {
		<-ctx.Done()
		c.config.Queue.Close()
	}()
	r := newReflector(c.config.ListerWatcher, c.config.ObjectType, c.config.Queue, ReflectorOptions{
		ResyncPeriod:    c.config.FullResyncPeriod,
		MinWatchTimeout: c.config.MinWatchTimeout,
		TypeDescription: c.config.ObjectDescription,
		Clock:           c.clock,
	}, c.sharing)
	r.ShouldResync = c.config.ShouldResync
	r.WatchListPageSize = c.config.WatchListPageSize
	switch {
	case c.config.WatchErrorHandler != nil:
		h := c.config.WatchErrorHandler
		r.setWatchErrorHandler(func(_ context.Context, r *Reflector, err error) { h(r, err) })
	case c.config.WatchErrorHandlerWithContext != nil:
		r.setWatchErrorHandler(c.config.WatchErrorHandlerWithContext)
	}
	c.reflectorLock.Lock()
	c.reflector = r
	c.reflectorLock.Unlock()

	var wg wait.Group
	wg.StartWithContext(ctx, r.RunWithContext)
	wait.UntilWithContext(ctx, c.processLoop, time.Second)
	wg.Wait()
}

// HasSynced reports whether the queue has synced.
func (c *controller) HasSynced() bool { return c.config.Queue.HasSynced() }

// HasSyncedChecker returns the queue's DoneChecker.
func (c *controller) HasSyncedChecker() DoneChecker { return c.config.Queue.HasSyncedChecker() }

// LastSyncResourceVersion returns the Reflector's last synced version.
func (c *controller) LastSyncResourceVersion() string {
	c.reflectorLock.RLock()
	defer c.reflectorLock.RUnlock()
	if c.reflector == nil {
		return ""
	}
	return c.reflector.LastSyncResourceVersion()
}

// processLoop pops and processes until the queue is closed.
func (c *controller) processLoop(ctx context.Context) {
	logger := klog.FromContext(ctx)
	batchQueue, canBatch := c.config.Queue.(QueueWithBatch)
	useBatch := canBatch && c.config.ProcessBatch != nil &&
		clientfeatures.FeatureGates().Enabled(clientfeatures.InOrderInformersBatchProcess)
	for {
		var err error
		if useBatch {
			err = batchQueue.PopBatch(c.config.ProcessBatch, PopProcessFunc(c.config.Process))
		} else {
			_, err = c.config.Queue.Pop(PopProcessFunc(c.config.Process))
		}
		if err != nil {
			if errors.Is(err, ErrFIFOClosed) {
				return
			}
			utilruntime.HandleErrorWithLogger(logger, err, "Failed to process item from the queue")
		}
	}
}

// InformerOptions configure NewInformerWithOptions.
type InformerOptions struct {
	// Logger replaces klog.Background().
	Logger *klog.Logger

	// ListerWatcher lists and watches the objects.
	ListerWatcher ListerWatcher

	// ObjectType is an example object of the expected type.
	ObjectType runtime.Object

	// Handler is notified of every change.
	Handler ResourceEventHandler

	// ResyncPeriod, if non-zero, makes the informer redeliver every cached
	// object as an update that often.
	ResyncPeriod time.Duration

	// MinWatchTimeout is the shortest watch timeout to request; values
	// below five minutes (the default) are raised to five minutes.
	MinWatchTimeout time.Duration

	// Indexers, if set, are maintained on the returned store.
	Indexers Indexers

	// Transform, if set, is applied to every object before it is stored
	// and handed to Handler.
	Transform TransformFunc

	// Identifier names the informer for metrics; unset means no metrics.
	Identifier InformerNameAndResource

	// InformerMetricsProvider provides the informer's metrics.
	InformerMetricsProvider InformerMetricsProvider
}

// NewInformer returns a Store and a Controller that keeps it filled and
// notifies h. Only read from the Store: writing to it breaks the
// notifications.
//
// Deprecated: Use NewInformerWithOptions instead.
func NewInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler) (Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod})
}

// NewIndexerInformer is NewInformer with indexers.
//
// Deprecated: Use NewInformerWithOptions instead.
func NewIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers) (Indexer, Controller) {
	store, c := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Indexers: indexers})
	return store.(Indexer), c
}

// NewTransformingInformer is NewInformer with a transform.
//
// Deprecated: Use NewInformerWithOptions instead.
func NewTransformingInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, transformer TransformFunc) (Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Transform: transformer})
}

// NewTransformingIndexerInformer is NewInformer with indexers and a
// transform.
//
// Deprecated: Use NewInformerWithOptions instead.
func NewTransformingIndexerInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, indexers Indexers, transformer TransformFunc) (Indexer, Controller) {
	store, c := NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Indexers: indexers, Transform: transformer})
	return store.(Indexer), c
}

// NewInformerWithOptions returns a Store (an Indexer) and a Controller
// that keeps it filled and notifies options.Handler. Only read from the
// Store: writing to it breaks the notifications.
func NewInformerWithOptions(options InformerOptions) (Store, Controller) {
	var opts []StoreOption
	if options.InformerMetricsProvider != nil {
		opts = append(opts, WithStoreMetrics(options.Identifier, options.InformerMetricsProvider))
	}
	clientState := NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers, opts...)
	handler := options.Handler
	if handler == nil {
		handler = ResourceEventHandlerFuncs{}
	}
	ctrl, _ := newInformerController(informerParts{
		config: Config{
			ListerWatcher:    options.ListerWatcher,
			ObjectType:       options.ObjectType,
			FullResyncPeriod: options.ResyncPeriod,
			MinWatchTimeout:  options.MinWatchTimeout,
		},
		logger:     options.Logger,
		transform:  options.Transform,
		identifier: options.Identifier,
		metrics:    options.InformerMetricsProvider,
		store:      clientState,
		sink:       handlerSink{handler},
	})
	return clientState, ctrl
}

// informerParts are what newInformerController builds an informer's
// controller from.
type informerParts struct {
	// config holds the source and the reflector's settings; Queue,
	// Process and ProcessBatch are newInformerController's.
	config Config
	// logger, transform, identifier and metrics configure the queue (see
	// newInformerQueue).
	logger     *klog.Logger
	transform  TransformFunc
	identifier InformerNameAndResource
	metrics    InformerMetricsProvider
	// store is the informer's cache and sink receives the notifications
	// of what is applied to it.
	store Indexer
	sink  notificationSink
	// applyLock, when not nil, is held while a popped item is applied to
	// store and its notifications are sent to sink.
	applyLock sync.Locker
	// clock runs the reflector's timers; nil is the real clock.
	clock clock.Clock
}

// newInformerController returns the controller of an informer and its
// queue: a RealFIFO that knows the keys of p.store, whose popped deltas a
// deltaApplier applies to p.store, publishing the objects the informer's
// cacheSharing gives.
func newInformerController(p informerParts) (*controller, *RealFIFO) {
	fifo := newInformerQueue(p.logger, p.transform, p.identifier, p.metrics, p.store)
	sharing := newCacheSharing(p.transform)
	apply := &deltaApplier{store: p.store, handler: p.sink, sharing: sharing, lock: p.applyLock}
	cfg := p.config
	cfg.Queue = fifo
	cfg.Process = apply.process
	cfg.ProcessBatch = apply.processBatch
	return newController(&cfg, controllerOptions{clock: p.clock, sharing: sharing}), fifo
}
