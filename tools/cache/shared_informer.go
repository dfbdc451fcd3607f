package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// SharedInformer keeps a local, eventually consistent cache of one kind of
// object (optionally narrowed by namespace or selectors) and notifies any
// number of handlers about changes to it.
//
// For every object the cache goes through a subsequence of the states the
// server went through, in order. Each handler is called sequentially, on
// its own goroutine and with its own unbounded buffer, so a slow handler
// never delays another; a handler sees the changes of one object in order.
// Handlers added after the informer started first get an add notification
// for every cached object. Notifications are sent after the cache has been
// updated. A delete notification carries the last known state, or a
// DeletedFinalStateUnknown when the deletion was only noticed by a relist.
//
// Cache keys are "namespace/name" (or "name"), see MetaNamespaceKeyFunc.
// Objects handed to handlers are shared and must not be modified.
type SharedInformer interface {
	// AddEventHandler adds handler with the informer's default resync
	// period. The returned registration removes it again and tells whether
	// it has seen the whole initial list. Code that logs with a context
	// should use AddEventHandlerWithOptions and pass the logger.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod adds handler with its own resync
	// period (zero: no resyncs). The informer rounds the period up to a
	// multiple of its resync check period; an informer created without
	// resyncs never resyncs.
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithOptions adds handler with the given options.
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler stops queueing notifications for a handler. It is
	// idempotent and does not wait for queued notifications to finish;
	// use ShutDownEventHandler for that.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the cache.
	GetStore() Store
	// GetController returns a read-only view of the informer's controller;
	// it has no real use any more.
	GetController() Controller
	// Run runs the informer until stopCh is closed. Code that logs with a
	// context should call RunWithContext.
	Run(stopCh <-chan struct{})
	// RunWithContext runs the informer until ctx is canceled.
	RunWithContext(ctx context.Context)
	// HasSynced reports whether the cache holds a full initial list. It
	// says nothing about individual handlers; ask their registrations.
	HasSynced() bool
	// HasSyncedChecker is the non-polling form of HasSynced.
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion is the resource version last synced to.
	LastSyncResourceVersion() string

	// SetWatchErrorHandler sets the handler called when ListAndWatch
	// fails (the informer then backs off and retries). It must be set
	// before the informer starts.
	SetWatchErrorHandler(handler WatchErrorHandler) error

	// SetWatchErrorHandlerWithContext is SetWatchErrorHandler with a
	// context.
	SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error

	// SetTransform sets the function applied to every object before it is
	// cached. It must be set before the informer starts.
	SetTransform(handler TransformFunc) error

	// IsStopped reports whether the informer has stopped; a stopped
	// informer accepts no handlers and never starts again.
	IsStopped() bool
}

// SharedIndexInformer is a SharedInformer with indexers.
type SharedIndexInformer interface {
	SharedInformer
	AddIndexers(indexers Indexers) error
	GetIndexer() Indexer
}

// ResourceEventHandlerRegistration identifies a handler added to a
// SharedInformer and tells whether it has seen the initial list.
type ResourceEventHandlerRegistration interface {
	// HasSynced reports whether the informer has synced and every
	// notification of the initial list reached the handler.
	HasSynced() bool

	// HasSyncedChecker is the non-polling form of HasSynced.
	HasSyncedChecker() DoneChecker
}

// SharedIndexInformerOptions configure NewSharedIndexInformerWithOptions.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default handler resync period and the resync
	// check period; zero disables resyncs.
	ResyncPeriod time.Duration

	// Indexers are the indexers of the cache.
	Indexers Indexers

	// ObjectDescription describes the type in logs.
	ObjectDescription string

	// Identifier names the informer for metrics; unset means no metrics.
	Identifier InformerNameAndResource

	// InformerMetricsProvider provides the informer's metrics.
	InformerMetricsProvider InformerMetricsProvider
}

const (
	// minimumResyncPeriod is the shortest resync period honoured.
	minimumResyncPeriod = 1 * time.Second
	// initialBufferSize is each handler's initial notification buffer.
	initialBufferSize = 1024
)

// NewSharedInformer returns a SharedInformer for lw. See
// NewSharedIndexInformerWithOptions.
func NewSharedInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, Indexers{})
}

// NewSharedIndexInformer returns a SharedIndexInformer for lw. See
// NewSharedIndexInformerWithOptions.
func NewSharedIndexInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration, indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{
		ResyncPeriod: defaultEventHandlerResyncPeriod,
		Indexers:     indexers,
	})
}

// NewSharedIndexInformerWithOptions returns a SharedIndexInformer for lw.
// With options.ResyncPeriod zero it never resyncs. Otherwise a handler's
// resync period is rounded up to a multiple of the informer's resync check
// period, which is fixed when the informer starts: the smallest period
// requested so far (options.ResyncPeriod included), but at least one
// second.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject runtime.Object, options SharedIndexInformerOptions) SharedIndexInformer {
	c := clock.RealClock{}
	provider := options.InformerMetricsProvider
	if provider == nil {
		provider = globalInformerMetrics()
	}
	var storeOpts []StoreOption
	if provider != nil {
		storeOpts = append(storeOpts, WithStoreMetrics(options.Identifier, provider))
	}
	s := &sharedIndexInformer{
		indexer:                         NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers, storeOpts...),
		processor:                       &sharedProcessor{clock: c, listeners: map[*processorListener]bool{}},
		listerWatcher:                   lw,
		objectType:                      exampleObject,
		objectDescription:               options.ObjectDescription,
		resyncCheckPeriod:               options.ResyncPeriod,
		defaultEventHandlerResyncPeriod: options.ResyncPeriod,
		clock:                           c,
		identifier:                      options.Identifier,
		metricsProvider:                 provider,
		syncedCh:                        make(chan struct{}),
	}
	s.cacheMutationDetector = NewCacheMutationDetector(fmt.Sprintf("%T", exampleObject))
	return s
}

// sharedIndexInformer implements SharedIndexInformer.
type sharedIndexInformer struct {
	// The source and what it yields, fixed at construction.
	listerWatcher     ListerWatcher
	objectType        runtime.Object
	objectDescription string
	identifier        InformerNameAndResource
	metricsProvider   InformerMetricsProvider
	clock             clock.Clock

	// The cache, the handlers and the debugging aid that checks that
	// nobody modifies cached objects.
	indexer               Indexer
	processor             *sharedProcessor
	cacheMutationDetector MutationDetector

	// defaultEventHandlerResyncPeriod applies to AddEventHandler.
	defaultEventHandlerResyncPeriod time.Duration

	// startedLock guards started, stopped, resyncCheckPeriod, controller,
	// fifo, transform and watchErrorHandler. Setters that configure the
	// pipeline fail once started is set.
	startedLock      sync.Mutex
	started, stopped bool
	// resyncCheckPeriod is how often the reflector asks whether any
	// handler is due for a resync; fixed once started.
	resyncCheckPeriod time.Duration
	controller        Controller
	fifo              *RealFIFO
	transform         TransformFunc
	watchErrorHandler WatchErrorHandlerWithContext

	// blockDeltas is held while deltas are applied and notifications
	// distributed, and while a late handler is added; it guarantees that
	// such a handler sees the cache snapshot plus every later change.
	blockDeltas sync.Mutex
	// synced is set, under blockDeltas, once the initial list has been
	// applied; syncedCh is closed at the same time.
	synced   atomic.Bool
	syncedCh chan struct{}
}

var _ SharedIndexInformer = &sharedIndexInformer{}

// errAlreadyStarted is returned by setters called after Run.
var errAlreadyStarted = errors.New("informer has already started")

// beforeStart applies configure unless the informer has started.
func (s *sharedIndexInformer) beforeStart(configure func()) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return errAlreadyStarted
	}
	configure()
	return nil
}

func (s *sharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	return s.SetWatchErrorHandlerWithContext(func(_ context.Context, r *Reflector, err error) { handler(r, err) })
}

func (s *sharedIndexInformer) SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error {
	return s.beforeStart(func() { s.watchErrorHandler = handler })
}

func (s *sharedIndexInformer) SetTransform(handler TransformFunc) error {
	return s.beforeStart(func() { s.transform = handler })
}

func (s *sharedIndexInformer) Run(stopCh <-chan struct{}) {
	ctx, cancel := contextForChannel(stopCh)
	defer cancel()
	s.RunWithContext(ctx)
}

func (s *sharedIndexInformer) RunWithContext(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	logger := klog.FromContext(ctx)

	s.startedLock.Lock()
	if s.started || s.stopped {
		s.startedLock.Unlock()
		logger.Info("Warning: the sharedIndexInformer has started, run more than once is not allowed")
		return
	}
	ctrl, fifo := newInformerController(informerParts{
		config: Config{
			ListerWatcher:                s.listerWatcher,
			ObjectType:                   s.objectType,
			ObjectDescription:            s.objectDescription,
			FullResyncPeriod:             s.resyncCheckPeriod,
			ShouldResync:                 s.processor.shouldResync,
			WatchErrorHandlerWithContext: s.watchErrorHandler,
		},
		logger:     &logger,
		transform:  s.transform,
		identifier: s.identifier,
		metrics:    s.metricsProvider,
		store:      s.indexer,
		sink:       (*informerSink)(s),
		applyLock:  &s.blockDeltas,
		clock:      s.clock,
	})
	s.fifo = fifo
	s.controller = ctrl
	s.started = true
	s.startedLock.Unlock()

	var wg sync.WaitGroup
	defer wg.Wait()
	processorCtx, stopProcessor := context.WithCancel(ctx)
	defer stopProcessor()
	wg.Add(3)
	go func() {
		defer wg.Done()
		s.cacheMutationDetector.Run(processorCtx.Done())
	}()
	go func() {
		defer wg.Done()
		s.processor.run(processorCtx)
	}()
	go func() {
		defer wg.Done()
		select {
		case <-s.fifo.HasSyncedChecker().Done():
			s.markSynced()
		case <-processorCtx.Done():
		}
	}()

	defer func() {
		s.startedLock.Lock()
		defer s.startedLock.Unlock()
		s.stopped = true
	}()
	ctrl.RunWithContext(ctx)
}

// markSynced records that the initial list has been applied and tells
// every handler so.
func (s *sharedIndexInformer) markSynced() {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	if s.synced.Swap(true) {
		return
	}
	close(s.syncedCh)
	s.processor.upstreamSynced()
}

func (s *sharedIndexInformer) HasStarted() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.started
}

func (s *sharedIndexInformer) HasSynced() bool { return s.synced.Load() }

func (s *sharedIndexInformer) HasSyncedChecker() DoneChecker {
	return channelChecker{name: s.describe(), ch: s.syncedCh}
}

func (s *sharedIndexInformer) describe() string {
	if s.objectDescription != "" {
		return s.objectDescription
	}
	return fmt.Sprintf("%T", s.objectType)
}

func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.controller == nil {
		return ""
	}
	return s.controller.LastSyncResourceVersion()
}

func (s *sharedIndexInformer) GetStore() Store { return s.indexer }

func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }

func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	return s.indexer.AddIndexers(indexers)
}

func (s *sharedIndexInformer) GetController() Controller {
	return &informerController{informer: s}
}

func (s *sharedIndexInformer) IsStopped() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.stopped
}

// informerController is what GetController returns: a read-only view.
type informerController struct {
	informer *sharedIndexInformer
}

func (c *informerController) RunWithContext(context.Context) {}

func (c *informerController) Run(<-chan struct{}) {}

func (c *informerController) HasSynced() bool { return c.informer.HasSynced() }

func (c *informerController) HasSyncedChecker() DoneChecker {
	return c.informer.HasSyncedChecker()
}

func (c *informerController) LastSyncResourceVersion() string {
	return c.informer.LastSyncResourceVersion()
}
