package cache

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
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

// notificationSink receives the notifications derived from applying
// deltas to a store. sync marks updates caused by a resync or an unchanged
// relist.
type notificationSink interface {
	add(obj interface{}, isInInitialList bool)
	update(oldObj, newObj interface{}, sync bool)
	delete(obj interface{})
	// resyncAll redelivers every object of the store as a sync update.
	resyncAll(objs []interface{})
}

// handlerSink adapts a plain ResourceEventHandler.
type handlerSink struct{ h ResourceEventHandler }

func (s handlerSink) add(obj interface{}, initial bool) { s.h.OnAdd(obj, initial) }
func (s handlerSink) update(o, n interface{}, _ bool)   { s.h.OnUpdate(o, n) }
func (s handlerSink) delete(obj interface{})            { s.h.OnDelete(obj) }
func (s handlerSink) resyncAll(objs []interface{}) {
	for _, obj := range objs {
		s.h.OnUpdate(obj, obj)
	}
}

// deltaApplier applies popped deltas to a store and reports the resulting
// notifications, in order. It runs on the controller's single processing
// goroutine.
type deltaApplier struct {
	store   Store
	handler notificationSink
	// sharing gives the object to publish for each object entering the
	// store (see cacheSharing.publish); nil publishes them as they are.
	sharing *cacheSharing
	// lock, when not nil, is held while process or processBatch applies
	// deltas and notifies handler.
	lock sync.Locker
}

var errNotDeltas = errors.New("object given as Process argument is not Deltas")

// hold takes a.lock, if any, and returns its release.
func (a *deltaApplier) hold() (release func()) {
	if a.lock == nil {
		return func() {}
	}
	a.lock.Lock()
	return a.lock.Unlock
}

func (a *deltaApplier) process(obj interface{}, isInInitialList bool) error {
	deltas, ok := obj.(Deltas)
	if !ok {
		return errNotDeltas
	}
	defer a.hold()()
	for _, d := range deltas {
		if err := a.apply(d, isInInitialList); err != nil {
			return err
		}
	}
	return nil
}

func (a *deltaApplier) apply(d Delta, isInInitialList bool) error {
	switch d.Type {
	case Sync, Replaced, Added, Updated:
		d = a.publishable(d)
		old, exists, err := a.store.Get(d.Object)
		if err != nil {
			return err
		}
		if exists {
			if err := a.store.Update(d.Object); err != nil {
				return err
			}
			a.handler.update(old, d.Object, sameResourceVersion(old, d.Object))
			return nil
		}
		if err := a.store.Add(d.Object); err != nil {
			return err
		}
		a.handler.add(d.Object, isInInitialList)
	case Deleted:
		if err := a.store.Delete(d.Object); err != nil {
			return err
		}
		a.handler.delete(d.Object)
	case ReplacedAll:
		info, ok := d.Object.(ReplacedAllInfo)
		if !ok {
			return errors.New("ReplacedAll delta without ReplacedAllInfo")
		}
		return a.replaceAll(info, isInInitialList)
	case SyncAll:
		a.handler.resyncAll(a.store.List())
	case Bookmark:
		if info, ok := d.Object.(BookmarkInfo); ok {
			a.store.Bookmark(info.ResourceVersion)
		}
	}
	return nil
}

// replaceAll makes the store equal to info.Objects: objects that vanished
// are deleted (notified as DeletedFinalStateUnknown), the others are added
// or updated.
func (a *deltaApplier) replaceAll(info ReplacedAllInfo, isInInitialList bool) error {
	// Informer stores are keyed by DeletionHandlingMetaNamespaceKeyFunc.
	keep := make(map[string]struct{}, len(info.Objects))
	for _, obj := range info.Objects {
		key, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		keep[key] = struct{}{}
	}
	for _, key := range a.store.ListKeys() {
		if _, ok := keep[key]; ok {
			continue
		}
		old, exists, err := a.store.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		if err := a.store.Delete(old); err != nil {
			return err
		}
		a.handler.delete(DeletedFinalStateUnknown{Key: key, Obj: old})
	}
	for _, obj := range info.Objects {
		if err := a.apply(Delta{Type: Replaced, Object: obj}, isInInitialList); err != nil {
			return err
		}
	}
	a.store.Bookmark(info.ResourceVersion)
	return nil
}

// processBatch applies deltas of distinct objects under one store lock
// acquisition when the store supports transactions, then notifies.
func (a *deltaApplier) processBatch(deltas []Delta, isInInitialList bool) error {
	defer a.hold()()
	ts, ok := a.store.(TransactionStore)
	if !ok {
		for _, d := range deltas {
			if err := a.apply(d, isInInitialList); err != nil {
				return err
			}
		}
		return nil
	}
	olds := make([]interface{}, len(deltas))
	exist := make([]bool, len(deltas))
	txns := make([]Transaction, len(deltas))
	for i, d := range deltas {
		d = a.publishable(d)
		old, exists, err := a.store.Get(d.Object)
		if err != nil {
			return err
		}
		olds[i], exist[i] = old, exists
		switch {
		case d.Type == Deleted:
			txns[i] = Transaction{Object: d.Object, Type: TransactionTypeDelete}
		case exists:
			txns[i] = Transaction{Object: d.Object, Type: TransactionTypeUpdate}
		default:
			txns[i] = Transaction{Object: d.Object, Type: TransactionTypeAdd}
		}
	}
	txErr := ts.Transaction(txns...)
	applied := func(i int) bool {
		if txErr == nil {
			return true
		}
		for _, j := range txErr.SuccessfulIndices {
			if j == i {
				return true
			}
		}
		return false
	}
	for i, txn := range txns {
		if !applied(i) {
			continue
		}
		// txn.Object is what was published for deltas[i].
		switch {
		case txn.Type == TransactionTypeDelete:
			a.handler.delete(txn.Object)
		case exist[i]:
			a.handler.update(olds[i], txn.Object, sameResourceVersion(olds[i], txn.Object))
		default:
			a.handler.add(txn.Object, isInInitialList)
		}
	}
	if txErr != nil {
		return txErr
	}
	return nil
}

// publishable returns d with the object to publish for it: for a delta
// that brings an object into the cache, what a.sharing publishes in its
// place. A Sync delta replays an object cached (and published) already, a
// deleted object leaves the cache.
func (a *deltaApplier) publishable(d Delta) Delta {
	switch d.Type {
	case Replaced, Added, Updated:
		d.Object = a.sharing.publish(d.Object)
	}
	return d
}

// sameResourceVersion reports whether both objects carry the same resource
// version, which marks an update as a resync rather than a change.
func sameResourceVersion(oldObj, newObj interface{}) bool {
	n, err := meta.Accessor(newObj)
	if err != nil {
		return false
	}
	o, err := meta.Accessor(oldObj)
	if err != nil {
		return false
	}
	return n.GetResourceVersion() == o.GetResourceVersion()
}
