package cache

import (
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
//
// Keying, the transform, Replace's deletions and Resync are the shared
// delta-queue core's (see deltaQueue); what is DeltaFIFO's own is the
// order, one entry per object (deltasByKey), and Delete's filter.
type DeltaFIFO struct {
	deltaQueue
	byKey deltasByKey

	emitDeltaTypeReplaced bool
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
	name := opts.Name
	if name == "" {
		name = "DeltaFIFO"
	}
	f := &DeltaFIFO{
		byKey:                 deltasByKey{items: map[string]Deltas{}},
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
	}
	f.init(&f.byKey, deltaQueueConfig{
		name:         name,
		keyFunc:      opts.KeyFunction,
		knownObjects: opts.KnownObjects,
		transformer:  opts.Transformer,
		logger:       opts.Logger,
		metrics:      newQueueMetrics(InformerNameAndResource{}, nil),
	})
	return f
}

// Name returns the queue's name.
func (f *DeltaFIFO) Name() string { return f.sync.Name() }

// Done is closed once HasSynced becomes true.
func (f *DeltaFIFO) Done() <-chan struct{} { return f.sync.Done() }

// HasSynced reports whether a plain write came first or everything from
// the first Replace has been popped.
func (f *DeltaFIFO) HasSynced() bool { return f.hasSynced() }

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *DeltaFIFO) HasSyncedChecker() DoneChecker { return f.sync }

// Transformer returns the configured transform.
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transformer }

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool { return f.isClosed() }

// Close wakes blocked Pop calls, which then return ErrFIFOClosed once the
// queue is drained.
func (f *DeltaFIFO) Close() { f.close() }

// Add queues an Added delta for obj.
func (f *DeltaFIFO) Add(obj interface{}) error { return f.write(Added, obj) }

// Update queues an Updated delta for obj.
func (f *DeltaFIFO) Update(obj interface{}) error { return f.write(Updated, obj) }

// KeyOf is the key function, extended to Deltas (key of the newest object)
// and DeletedFinalStateUnknown (its recorded key).
func (f *DeltaFIFO) KeyOf(obj interface{}) (string, error) { return f.keyOf(obj) }

// Delete records a Deleted delta for obj, unless the object is unknown both
// to the queue and to the known objects (it may already have been deleted
// by a Replace).
func (f *DeltaFIFO) Delete(obj interface{}) error {
	key, err := f.keyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	if _, queued := f.byKey.items[key]; !queued {
		if f.knownObjects == nil {
			return nil
		}
		if _, known, err := f.knownObjects.GetByKey(key); err == nil && !known {
			return nil
		}
	}
	return f.push(Deleted, obj, true)
}

// Pop waits for a key, removes it with its Deltas and passes the Deltas to
// process, under the queue's lock. process should be quick: it blocks every
// other queue operation. Pop returns the Deltas and process's error.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		if err := f.waitLocked(); err != nil {
			return nil, err
		}
		inInitial := !f.sync.synced()
		f.sync.popped()
		key, deltas, ok := f.byKey.take()
		if !ok {
			f.logger.Error(nil, "Inconceivable! Queued key has no deltas", "key", key)
			f.sync.signalIfSynced()
			continue
		}
		f.metrics.queued.Set(float64(f.byKey.pending()))
		// Box once: every conversion of Deltas to an interface allocates.
		var boxed interface{} = deltas
		err := process(boxed, inInitial)
		f.sync.signalIfSynced()
		return boxed, err
	}
}

// Replace records a Replaced (or Sync) delta for every object in list and
// then a Deleted delta, carrying a DeletedFinalStateUnknown with the last
// known state, for every key that the queue or the known objects hold but
// list lacks.
func (f *DeltaFIFO) Replace(list []interface{}, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	plan, err := f.planReplace(list)
	if err != nil {
		return err
	}
	listed := Sync
	if f.emitDeltaTypeReplaced {
		listed = Replaced
	}
	if err := f.queueListed(plan, listed); err != nil {
		return err
	}
	if err := f.queueDeletions(plan); err != nil {
		return err
	}
	f.sync.markPopulated(f.byKey.pending())
	return nil
}

// Resync records a Sync delta for every known object whose key is not
// already queued. Without known objects it does nothing.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.resyncLocked()
}

// deltasByKey is DeltaFIFO's order: one entry per object, in the order
// the objects first got a delta since they were last popped, holding all
// their deltas.
type deltasByKey struct {
	items map[string]Deltas
	// queue lists the keys of items, oldest first.
	queue []string
}

func (o *deltasByKey) add(key string, d Delta) {
	old := o.items[key]
	if len(old) == 0 {
		o.queue = append(o.queue, key)
	}
	o.items[key] = collapseDeletions(append(old, d))
}

func (o *deltasByKey) pending() int { return len(o.queue) }

func (o *deltasByKey) eachQueued(fn func(key string, newest Delta)) {
	for _, key := range o.queue {
		if d := o.items[key].Newest(); d != nil {
			fn(key, *d)
		}
	}
}

// take removes the oldest key and returns it with its deltas; ok is false
// for a key without deltas.
func (o *deltasByKey) take() (key string, deltas Deltas, ok bool) {
	key = o.queue[0]
	o.queue[0] = ""
	o.queue = o.queue[1:]
	deltas, ok = o.items[key]
	delete(o.items, key)
	return key, deltas, ok
}

// collapseDeletions merges two trailing Deleted deltas into one, keeping
// the one that carries a real final state: a relist can report a deletion
// the watch already delivered.
func collapseDeletions(deltas Deltas) Deltas {
	n := len(deltas)
	if n < 2 || deltas[n-2].Type != Deleted || deltas[n-1].Type != Deleted {
		return deltas
	}
	if _, tomb := deltas[n-1].Object.(DeletedFinalStateUnknown); !tomb {
		deltas[n-2] = deltas[n-1]
	}
	deltas[n-1] = Delta{}
	return deltas[:n-1]
}
