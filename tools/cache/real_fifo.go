package cache

import (
	"sync"
	"time"

	"k8s.io/klog/v2"
)

const (
	// defaultRealFIFOBatchSize bounds how many deltas PopBatch hands out.
	defaultRealFIFOBatchSize = 1000
	// maxRetainedFIFOCapacity is the largest queue buffer kept once drained.
	maxRetainedFIFOCapacity = 4096
)

// RealFIFO is a Queue that hands every notification from the Reflector to
// the consumer, in order: several changes of one object are all delivered,
// including deletions.
//
// With AtomicEvents a Replace becomes a single ReplacedAll delta and a
// Resync a single SyncAll delta, which the consumer applies against its own
// store; otherwise RealFIFO expands them into per-object deltas using the
// known objects.
type RealFIFO struct {
	// lock guards every field below; cond signals new items and Close.
	lock sync.RWMutex
	cond sync.Cond

	// items holds the queued deltas in order; head indexes the first one.
	items []Delta
	head  int

	sync         *initialSync
	keyFunc      KeyFunc
	knownObjects KeyListerGetter
	transformer  TransformFunc
	closed       bool

	atomic                bool
	unlockWhileProcessing bool
	emitBookmarks         bool
	batchSize             int

	logger  klog.Logger
	metrics queueMetrics
}

// RealFIFOOptions configure NewRealFIFOWithOptions.
type RealFIFOOptions struct {
	// Logger replaces klog.Background(); the queue's name is appended to
	// it.
	Logger *klog.Logger

	// Name replaces the default "RealFIFO" name when Identifier has none.
	Name string

	// KeyFunction computes object keys; MetaNamespaceKeyFunc by default.
	KeyFunction KeyFunc

	// KnownObjects lists the keys the consumer holds. Without AtomicEvents
	// it is required: Replace and Resync consult it.
	KnownObjects KeyListerGetter

	// Transformer, if set, is applied to objects before they are queued.
	Transformer TransformFunc

	// AtomicEvents makes Replace and Resync queue one delta each instead of
	// one per object. KnownObjects must then be nil.
	AtomicEvents bool

	// UnlockWhileProcessing releases the queue's lock while the consumer
	// processes, so producers are not blocked. It requires AtomicEvents.
	UnlockWhileProcessing bool

	// Identifier names the queue for metrics and logs; zero means no
	// metrics.
	Identifier InformerNameAndResource

	// MetricsProvider creates the queue's metrics.
	MetricsProvider InformerMetricsProvider

	// EmitDeltaTypeBookmark makes Bookmark queue Bookmark deltas. It
	// requires AtomicEvents.
	EmitDeltaTypeBookmark bool
}

var _ QueueWithBatch = &RealFIFO{}

// NewRealFIFO returns a non-atomic RealFIFO.
//
// Deprecated: Use NewRealFIFOWithOptions instead.
func NewRealFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter, transformer TransformFunc) *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects, Transformer: transformer})
}

// NewRealFIFOWithOptions returns a RealFIFO configured by opts. Invalid
// combinations of options panic, as they are programming errors.
func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	if opts.AtomicEvents && opts.KnownObjects != nil {
		panic("cache.RealFIFOOptions: KnownObjects must be nil when AtomicEvents is set")
	}
	if opts.UnlockWhileProcessing && !opts.AtomicEvents {
		panic("cache.RealFIFOOptions: UnlockWhileProcessing requires AtomicEvents")
	}
	if opts.EmitDeltaTypeBookmark && !opts.AtomicEvents {
		panic("cache.RealFIFOOptions: EmitDeltaTypeBookmark requires AtomicEvents")
	}
	name := opts.Identifier.Name()
	if name == "" {
		name = opts.Name
	}
	if name == "" {
		name = "RealFIFO"
	}
	logger := klog.Background()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	provider := opts.MetricsProvider
	if provider == nil {
		provider = globalInformerMetrics()
	}
	f := &RealFIFO{
		sync:                  newInitialSync(name),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		transformer:           opts.Transformer,
		atomic:                opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitBookmarks:         opts.EmitDeltaTypeBookmark,
		batchSize:             defaultRealFIFOBatchSize,
		logger:                klog.LoggerWithName(logger, name),
		metrics:               newQueueMetrics(opts.Identifier, provider),
	}
	f.cond.L = &f.lock
	return f
}

// Name returns the queue's name.
func (f *RealFIFO) Name() string { return f.sync.Name() }

// Done is closed once HasSynced becomes true.
func (f *RealFIFO) Done() <-chan struct{} { return f.sync.Done() }

// HasSynced reports whether a plain write came first or everything from
// the first Replace has been processed.
func (f *RealFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.sync.synced()
}

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *RealFIFO) HasSyncedChecker() DoneChecker { return f.sync }

// Transformer returns the configured transform.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

func (f *RealFIFO) keyOf(obj interface{}) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

func (f *RealFIFO) transform(obj interface{}) (interface{}, error) {
	if f.transformer == nil {
		return obj, nil
	}
	if _, tombstone := obj.(DeletedFinalStateUnknown); tombstone {
		return obj, nil
	}
	return f.transformer(obj)
}

func (f *RealFIFO) pending() int { return len(f.items) - f.head }

// pushLocked appends one delta.
func (f *RealFIFO) pushLocked(d Delta) {
	switch {
	case f.head >= 64 && f.head*2 >= len(f.items) && len(f.items) == cap(f.items):
		// Slide the live tail down instead of growing past a dead prefix.
		n := copy(f.items, f.items[f.head:])
		clear(f.items[n:])
		f.items = f.items[:n]
		f.head = 0
	}
	f.items = append(f.items, d)
	f.metrics.queued.Set(float64(f.pending()))
	f.cond.Broadcast()
}

func (f *RealFIFO) addLocked(t DeltaType, obj interface{}) error {
	if _, err := f.keyOf(obj); err != nil {
		return KeyError{obj, err}
	}
	obj, err := f.transform(obj)
	if err != nil {
		return err
	}
	f.pushLocked(Delta{Type: t, Object: obj})
	return nil
}

// Add queues an Added delta.
func (f *RealFIFO) Add(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	return f.addLocked(Added, obj)
}

// Update queues an Updated delta.
func (f *RealFIFO) Update(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	return f.addLocked(Updated, obj)
}

// Delete queues a Deleted delta.
func (f *RealFIFO) Delete(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	return f.addLocked(Deleted, obj)
}

// Bookmark queues a Bookmark delta when the queue emits them.
func (f *RealFIFO) Bookmark(resourceVersion string) error {
	if !f.emitBookmarks {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.pushLocked(Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: resourceVersion}})
	return nil
}

// IsClosed reports whether Close was called.
func (f *RealFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// Close wakes blocked Pop calls, which then return ErrFIFOClosed.
func (f *RealFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// waitLocked blocks until a delta is queued or the queue is closed.
func (f *RealFIFO) waitLocked() error {
	for f.pending() == 0 {
		if f.closed {
			return ErrFIFOClosed
		}
		f.cond.Wait()
	}
	return nil
}

func (f *RealFIFO) shiftLocked() Delta {
	d := f.items[f.head]
	f.items[f.head] = Delta{}
	f.head++
	if f.head == len(f.items) {
		// Drained: start over, and let a buffer grown by a burst go.
		if cap(f.items) > maxRetainedFIFOCapacity {
			f.items = nil
		} else {
			f.items = f.items[:0]
		}
		f.head = 0
	}
	f.metrics.queued.Set(float64(f.pending()))
	return d
}

// Pop waits for a delta and passes it, as a one-element Deltas, to process.
// process runs under the lock unless UnlockWhileProcessing is set.
func (f *RealFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return nil, err
	}
	inInitial := !f.sync.synced()
	var item interface{} = Deltas{f.shiftLocked()}
	err := f.runLocked(func() error { return process(item, inInitial) }, 1)
	return item, err
}

// runLocked calls fn, dropping the lock around it if configured, and then
// accounts for n processed deltas.
func (f *RealFIFO) runLocked(fn func() error, n int) error {
	start := time.Now()
	var err error
	if f.unlockWhileProcessing {
		// Re-lock in a defer so that a panicking handler leaves the mutex
		// held for the caller's deferred Unlock.
		err = func() error {
			f.lock.Unlock()
			defer f.lock.Lock()
			return fn()
		}()
	} else {
		err = fn()
	}
	f.metrics.latency.Observe(time.Since(start).Seconds())
	for i := 0; i < n; i++ {
		f.sync.popped()
	}
	f.sync.signalIfSynced()
	return err
}

func batchable(t DeltaType) bool {
	switch t {
	case Added, Updated, Deleted, Replaced, Sync:
		return true
	}
	return false
}

// PopBatch pops as many consecutive deltas of distinct objects as it can
// (up to an internal limit) and passes them to processBatch; when only one
// delta can be taken it goes to processSingle instead.
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return err
	}
	inInitial := !f.sync.synced()
	limit := f.batchSize
	if inInitial && f.sync.remaining > 0 && f.sync.remaining < limit {
		// Never mix initial-list items with later ones.
		limit = f.sync.remaining
	}
	n := 0
	var seen map[string]struct{}
	for n < limit && f.head+n < len(f.items) {
		d := f.items[f.head+n]
		if !batchable(d.Type) {
			break
		}
		key, err := f.keyOf(d.Object)
		if err != nil {
			break
		}
		if seen == nil {
			seen = make(map[string]struct{}, min(limit, f.pending()))
		}
		if _, dup := seen[key]; dup {
			break
		}
		seen[key] = struct{}{}
		n++
	}
	if n <= 1 {
		var item interface{} = Deltas{f.shiftLocked()}
		return f.runLocked(func() error { return processSingle(item, inInitial) }, 1)
	}
	batch := make([]Delta, n)
	for i := range batch {
		batch[i] = f.shiftLocked()
	}
	return f.runLocked(func() error { return processBatch(batch, inInitial) }, n)
}

// Replace queues the new list. Atomically it is one ReplacedAll delta;
// otherwise every object missing from list that the queue or the known
// objects hold gets a Deleted delta with a DeletedFinalStateUnknown, and
// every listed object a Replaced delta.
func (f *RealFIFO) Replace(newItems []interface{}, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.atomic {
		objs := make([]interface{}, 0, len(newItems))
		for _, obj := range newItems {
			if _, err := f.keyOf(obj); err != nil {
				return KeyError{obj, err}
			}
			obj, err := f.transform(obj)
			if err != nil {
				return err
			}
			objs = append(objs, obj)
		}
		f.pushLocked(Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: resourceVersion, Objects: objs}})
		f.sync.markPopulated(1)
		return nil
	}

	newKeys := make(map[string]struct{}, len(newItems))
	for _, obj := range newItems {
		key, err := f.keyOf(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		newKeys[key] = struct{}{}
	}
	// The newest queued state of every key that is going away.
	lastQueued := map[string]Delta{}
	order := []string{}
	for _, d := range f.items[f.head:] {
		if !batchable(d.Type) {
			continue
		}
		key, err := f.keyOf(d.Object)
		if err != nil {
			continue
		}
		if _, keep := newKeys[key]; keep {
			continue
		}
		if _, seen := lastQueued[key]; !seen {
			order = append(order, key)
		}
		lastQueued[key] = d
	}
	queued := 0
	for _, key := range order {
		d := lastQueued[key]
		if d.Type == Deleted {
			continue
		}
		f.pushLocked(Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: d.Object}})
		queued++
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if _, keep := newKeys[key]; keep {
				continue
			}
			if _, handled := lastQueued[key]; handled {
				continue
			}
			obj, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				obj = nil
			}
			f.pushLocked(Delta{Type: Deleted, Object: DeletedFinalStateUnknown{Key: key, Obj: obj}})
			queued++
		}
	}
	for _, obj := range newItems {
		obj, err := f.transform(obj)
		if err != nil {
			return err
		}
		f.pushLocked(Delta{Type: Replaced, Object: obj})
		queued++
	}
	f.sync.markPopulated(queued)
	return nil
}

// Resync asks for every known object to be reprocessed: one SyncAll delta
// when atomic, otherwise a Sync delta per known object that has nothing
// queued.
func (f *RealFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.atomic {
		f.pushLocked(Delta{Type: SyncAll, Object: SyncAllInfo{}})
		return nil
	}
	if f.knownObjects == nil {
		return nil
	}
	inQueue := map[string]struct{}{}
	for _, d := range f.items[f.head:] {
		if key, err := f.keyOf(d.Object); err == nil {
			inQueue[key] = struct{}{}
		}
	}
	for _, key := range f.knownObjects.ListKeys() {
		if _, queued := inQueue[key]; queued {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil {
			f.logger.Error(err, "Unable to queue object for sync", "key", key)
			continue
		}
		if !exists {
			continue
		}
		f.pushLocked(Delta{Type: Sync, Object: obj})
	}
	return nil
}
