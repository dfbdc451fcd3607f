package cache

import (
	"fmt"
	"sync"

	"k8s.io/klog/v2"
)

// DeltaFIFO is a producer/consumer queue whose accumulator per key is the
// list of changes (Deltas) the object went through since it was last
// popped. Consecutive deletions collapse into one, preferring a real final
// state over a DeletedFinalStateUnknown. Besides Add/Update/Delete it
// records Replaced (or Sync, for compatibility) deltas from Replace, and
// Sync deltas from Resync.
//
// The optional known objects (usually the consumer's Indexer) shape
// Delete, Replace and Resync: they say which objects the consumer already
// holds, so that deletions of those are noticed and resyncs reach them.
//
// Pop calls its process function under the queue's lock, so the consumer
// can update the known objects consistently with the queue. Popping from
// several goroutines at once lets them see different versions of an
// object.
type DeltaFIFO struct {
	// lock guards every field below; cond signals new items and Close.
	lock  sync.RWMutex
	cond  sync.Cond
	items map[string]Deltas
	queue []string

	sync         *initialSync
	keyFunc      KeyFunc
	knownObjects KeyListerGetter
	closed       bool

	emitDeltaTypeReplaced bool
	transformer           TransformFunc
	logger                klog.Logger
	metrics               queueMetrics
}

// DeltaFIFOOptions configure NewDeltaFIFOWithOptions. All are optional.
type DeltaFIFOOptions struct {
	// Logger replaces klog.Background(); the queue's name is appended to
	// it.
	Logger *klog.Logger

	// Name replaces the default name, "DeltaFIFO".
	Name string

	// KeyFunction computes object keys; MetaNamespaceKeyFunc by default.
	KeyFunction KeyFunc

	// KnownObjects lists the keys the consumer holds. Replace uses it to
	// detect deletions; without it some deletions go unnoticed.
	KnownObjects KeyListerGetter

	// EmitDeltaTypeReplaced makes Replace record Replaced deltas instead of
	// Sync ones.
	EmitDeltaTypeReplaced bool

	// Transformer, if set, is applied to objects before they are queued.
	Transformer TransformFunc
}

// KeyGetter can look up a value by key.
type KeyGetter interface {
	// GetByKey looks key up; exists is false when it is absent.
	GetByKey(key string) (value interface{}, exists bool, err error)
}

// KeyLister can list its keys.
type KeyLister interface {
	ListKeys() []string
}

// KeyListerGetter can list its keys and look values up by key.
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

var _ Queue = &DeltaFIFO{}

// NewDeltaFIFO returns a DeltaFIFO that records Sync deltas on Replace.
//
// Deprecated: Equivalent to NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects})
func NewDeltaFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter) *DeltaFIFO {
	return NewDeltaFIFOWithOptions(DeltaFIFOOptions{KeyFunction: keyFunc, KnownObjects: knownObjects})
}

// NewDeltaFIFOWithOptions returns a DeltaFIFO configured by opts.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	name := opts.Name
	if name == "" {
		name = "DeltaFIFO"
	}
	logger := klog.Background()
	if opts.Logger != nil {
		logger = *opts.Logger
	}
	f := &DeltaFIFO{
		items:                 map[string]Deltas{},
		sync:                  newInitialSync(name),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
		transformer:           opts.Transformer,
		logger:                klog.LoggerWithName(logger, name),
		metrics:               newQueueMetrics(InformerNameAndResource{}, nil),
	}
	f.cond.L = &f.lock
	return f
}

// Name returns the queue's name.
func (f *DeltaFIFO) Name() string { return f.sync.Name() }

// Done is closed once HasSynced becomes true.
func (f *DeltaFIFO) Done() <-chan struct{} { return f.sync.Done() }

// HasSynced reports whether a plain write came first or everything from
// the first Replace has been popped.
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.sync.synced()
}

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *DeltaFIFO) HasSyncedChecker() DoneChecker { return f.sync }

// Transformer returns the configured transform.
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transformer }

// KeyOf is the key function, extended to Deltas (key of the newest object)
// and DeletedFinalStateUnknown (its recorded key).
func (f *DeltaFIFO) KeyOf(obj interface{}) (string, error) {
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

// Add records an Added delta for obj.
func (f *DeltaFIFO) Add(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	return f.queueActionLocked(Added, obj)
}

// Update records an Updated delta for obj.
func (f *DeltaFIFO) Update(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	return f.queueActionLocked(Updated, obj)
}

// Delete records a Deleted delta for obj, unless the object is unknown both
// to the queue and to the known objects (it may already have been deleted
// by a Replace).
func (f *DeltaFIFO) Delete(obj interface{}) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	_, queued := f.items[key]
	if !queued {
		if f.knownObjects == nil {
			return nil
		}
		_, known, err := f.knownObjects.GetByKey(key)
		if err == nil && !known {
			return nil
		}
	}
	return f.queueActionLocked(Deleted, obj)
}

// queueActionLocked appends a delta for obj and queues its key if needed.
// Sync deltas, which replay already transformed known objects, skip the
// transformer.
func (f *DeltaFIFO) queueActionLocked(actionType DeltaType, obj interface{}) error {
	return f.queueLocked(actionType, obj, actionType != Sync)
}

// queueLocked is queueActionLocked with an explicit choice whether obj
// still has to go through the transformer. Replace needs it because its
// listed objects are new even when they are recorded as Sync deltas.
func (f *DeltaFIFO) queueLocked(actionType DeltaType, obj interface{}, transform bool) error {
	key, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	// Every object enters the queue here exactly once.
	if f.transformer != nil && transform {
		if _, tombstone := obj.(DeletedFinalStateUnknown); !tombstone {
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	old := f.items[key]
	deltas := append(old, Delta{actionType, obj})
	deltas = dedupDeltas(deltas)
	if len(old) == 0 {
		f.queue = append(f.queue, key)
	}
	f.items[key] = deltas
	f.metrics.queued.Set(float64(len(f.items)))
	f.cond.Broadcast()
	return nil
}

// dedupDeltas collapses two trailing Deleted deltas into one, keeping the
// one that carries a real final state.
func dedupDeltas(deltas Deltas) Deltas {
	n := len(deltas)
	if n < 2 {
		return deltas
	}
	a, b := &deltas[n-2], &deltas[n-1]
	if a.Type != Deleted || b.Type != Deleted {
		return deltas
	}
	keep := *b
	if _, tombstone := b.Object.(DeletedFinalStateUnknown); tombstone {
		keep = *a
	}
	deltas[n-2] = keep
	deltas[n-1] = Delta{}
	return deltas[:n-1]
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// Close wakes blocked Pop calls, which then return ErrFIFOClosed.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// Pop waits for a key, removes it with its Deltas and passes the Deltas to
// process, under the queue's lock. process should be quick: it blocks every
// other queue operation. Pop returns the Deltas and process's error.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		key := f.queue[0]
		f.queue[0] = ""
		f.queue = f.queue[1:]
		inInitial := !f.sync.synced()
		f.sync.popped()
		item, ok := f.items[key]
		if !ok {
			f.logger.Error(nil, "Inconceivable! Queued key has no deltas", "key", key)
			f.sync.signalIfSynced()
			continue
		}
		delete(f.items, key)
		f.metrics.queued.Set(float64(len(f.items)))
		// Box once: every conversion of Deltas to an interface allocates.
		var boxed interface{} = item
		err := process(boxed, inInitial)
		f.sync.signalIfSynced()
		return boxed, err
	}
}

// Replace records a Replaced (or Sync) delta for every object in list and
// a Deleted delta, carrying a DeletedFinalStateUnknown with the last known
// state, for every key that the queue or the known objects hold but list
// lacks.
func (f *DeltaFIFO) Replace(list []interface{}, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	keys := make(map[string]struct{}, len(list))
	for _, item := range list {
		key, err := f.KeyOf(item)
		if err != nil {
			return KeyError{item, err}
		}
		keys[key] = struct{}{}
		if err := f.queueLocked(action, item, true); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	deletions := 0
	for key, deltas := range f.items {
		if _, present := keys[key]; present {
			continue
		}
		var last interface{}
		if n := deltas.Newest(); n != nil {
			last = n.Object
			if d, ok := last.(DeletedFinalStateUnknown); ok {
				last = d.Obj
			}
		}
		deletions++
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: last}); err != nil {
			return err
		}
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if _, present := keys[key]; present {
				continue
			}
			if len(f.items[key]) > 0 {
				continue
			}
			last, exists, err := f.knownObjects.GetByKey(key)
			if err != nil {
				last = nil
				f.logger.Error(err, "Unexpected error during lookup, placing DeleteFinalStateUnknown marker without object", "key", key)
			} else if !exists {
				last = nil
				f.logger.Info("Key does not exist in known objects store, placing DeleteFinalStateUnknown marker without object", "key", key)
			}
			deletions++
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: last}); err != nil {
				return err
			}
		}
	}
	f.sync.markPopulated(len(keys) + deletions)
	return nil
}

// Resync records a Sync delta for every known object whose key is not
// already queued. Without known objects it does nothing.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, key := range f.knownObjects.ListKeys() {
		if len(f.items[key]) > 0 {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil {
			f.logger.Error(err, "Unexpected error during lookup, unable to queue object for sync", "key", key)
			continue
		}
		if !exists {
			f.logger.Info("Key does not exist in known objects store, unable to queue object for sync", "key", key)
			continue
		}
		if err := f.queueActionLocked(Sync, obj); err != nil {
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
}
