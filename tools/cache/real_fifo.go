package cache

import (
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
//
// Keying, the transform, Replace's deletions and Resync are the shared
// delta-queue core's (see deltaQueue); what is RealFIFO's own is the
// order, one stream of deltas (deltaStream), the atomic summaries and
// batching.
type RealFIFO struct {
	deltaQueue
	stream deltaStream

	atomic                bool
	unlockWhileProcessing bool
	emitBookmarks         bool
	batchSize             int
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
	provider := opts.MetricsProvider
	if provider == nil {
		provider = globalInformerMetrics()
	}
	f := &RealFIFO{
		atomic:                opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitBookmarks:         opts.EmitDeltaTypeBookmark,
		batchSize:             defaultRealFIFOBatchSize,
	}
	f.init(&f.stream, deltaQueueConfig{
		name:         name,
		keyFunc:      opts.KeyFunction,
		knownObjects: opts.KnownObjects,
		transformer:  opts.Transformer,
		logger:       opts.Logger,
		metrics:      newQueueMetrics(opts.Identifier, provider),
	})
	return f
}

// Name returns the queue's name.
func (f *RealFIFO) Name() string { return f.sync.Name() }

// Done is closed once HasSynced becomes true.
func (f *RealFIFO) Done() <-chan struct{} { return f.sync.Done() }

// HasSynced reports whether a plain write came first or everything from
// the first Replace has been processed.
func (f *RealFIFO) HasSynced() bool { return f.hasSynced() }

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *RealFIFO) HasSyncedChecker() DoneChecker { return f.sync }

// Transformer returns the configured transform.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

// IsClosed reports whether Close was called.
func (f *RealFIFO) IsClosed() bool { return f.isClosed() }

// Close wakes blocked Pop and PopBatch calls, which then return ErrFIFOClosed once the
// queue is drained.
func (f *RealFIFO) Close() { f.close() }

// Add queues an Added delta for obj.
func (f *RealFIFO) Add(obj interface{}) error { return f.write(Added, obj) }

// Update queues an Updated delta for obj.
func (f *RealFIFO) Update(obj interface{}) error { return f.write(Updated, obj) }

// Delete queues a Deleted delta.
func (f *RealFIFO) Delete(obj interface{}) error { return f.write(Deleted, obj) }

// Bookmark queues a Bookmark delta when the queue emits them.
func (f *RealFIFO) Bookmark(resourceVersion string) error {
	if !f.emitBookmarks {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.pushSummary(Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: resourceVersion}})
	return nil
}

// pushSummary queues a delta that stands for no single object.
func (f *RealFIFO) pushSummary(d Delta) {
	f.stream.append(d)
	f.queued()
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
	var item interface{} = Deltas{f.shift()}
	err := f.runLocked(func() error { return process(item, inInitial) }, 1)
	return item, err
}

func (f *RealFIFO) shift() Delta {
	d := f.stream.shift()
	f.metrics.queued.Set(float64(f.stream.pending()))
	return d
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
	n := f.stream.distinctObjects(limit)
	if n <= 1 {
		var item interface{} = Deltas{f.shift()}
		return f.runLocked(func() error { return processSingle(item, inInitial) }, 1)
	}
	batch := make([]Delta, n)
	for i := range batch {
		batch[i] = f.shift()
	}
	return f.runLocked(func() error { return processBatch(batch, inInitial) }, n)
}

// Replace queues the new list. Atomically it is one ReplacedAll delta;
// otherwise every object missing from list that the queue or the known
// objects hold gets a Deleted delta with a DeletedFinalStateUnknown, and
// then every listed object a Replaced delta.
func (f *RealFIFO) Replace(newItems []interface{}, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.atomic {
		objs := newItems
		if f.transformer != nil {
			objs = make([]interface{}, len(newItems))
			for i, obj := range newItems {
				var err error
				if objs[i], err = f.transformer(obj); err != nil {
					return err
				}
			}
		}
		f.pushSummary(Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: resourceVersion, Objects: objs}})
	} else {
		plan, err := f.planReplace(newItems)
		if err != nil {
			return err
		}
		if err := f.queueDeletions(plan); err != nil {
			return err
		}
		if err := f.queueListed(plan, Replaced); err != nil {
			return err
		}
	}
	f.sync.markPopulated(f.stream.pending())
	return nil
}

// Resync asks for every known object to be reprocessed: one SyncAll delta
// when atomic, otherwise a Sync delta per known object that has nothing
// queued.
func (f *RealFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.atomic {
		f.pushSummary(Delta{Type: SyncAll, Object: SyncAllInfo{}})
		return nil
	}
	return f.resyncLocked()
}

// deltaStream is RealFIFO's order: every delta, in arrival order, in a
// slice read from head. Object deltas keep the key they were queued
// under, so that the per-object views need not compute it again.
type deltaStream struct {
	items []keyedDelta
	head  int
}

// keyedDelta is a queued delta and, for an object delta, its key.
type keyedDelta struct {
	key string
	Delta
}

func (s *deltaStream) add(key string, d Delta) { s.push(keyedDelta{key: key, Delta: d}) }

// append queues a summary delta, which belongs to no object.
func (s *deltaStream) append(d Delta) { s.push(keyedDelta{Delta: d}) }

func (s *deltaStream) push(d keyedDelta) {
	if s.head >= 64 && s.head*2 >= len(s.items) && len(s.items) == cap(s.items) {
		// Slide the live tail down instead of growing past a dead prefix.
		n := copy(s.items, s.items[s.head:])
		clear(s.items[n:])
		s.items = s.items[:n]
		s.head = 0
	}
	s.items = append(s.items, d)
}

func (s *deltaStream) pending() int { return len(s.items) - s.head }

// shift removes and returns the oldest delta.
func (s *deltaStream) shift() Delta {
	d := s.items[s.head].Delta
	s.items[s.head] = keyedDelta{}
	s.head++
	if s.head == len(s.items) {
		// Drained: start over, and let a buffer grown by a burst go.
		if cap(s.items) > maxRetainedFIFOCapacity {
			s.items = nil
		} else {
			s.items = s.items[:0]
		}
		s.head = 0
	}
	return d
}

// eachQueued visits the object deltas; summaries (ReplacedAll, SyncAll,
// Bookmark) belong to no object.
func (s *deltaStream) eachQueued(fn func(key string, newest Delta)) {
	newest := map[string]Delta{}
	var order []string
	for _, d := range s.items[s.head:] {
		if !isObjectDelta(d.Type) {
			continue
		}
		if _, seen := newest[d.key]; !seen {
			order = append(order, d.key)
		}
		newest[d.key] = d.Delta
	}
	for _, key := range order {
		fn(key, newest[key])
	}
}

// distinctObjects counts the leading deltas, at most limit, that are
// object deltas of pairwise different objects: those can be processed as
// one batch.
func (s *deltaStream) distinctObjects(limit int) int {
	n := 0
	var seen map[string]struct{}
	for n < limit && s.head+n < len(s.items) {
		d := s.items[s.head+n]
		if !isObjectDelta(d.Type) {
			break
		}
		if seen == nil {
			seen = make(map[string]struct{}, min(limit, s.pending()))
		}
		if _, dup := seen[d.key]; dup {
			break
		}
		seen[d.key] = struct{}{}
		n++
	}
	return n
}

// isObjectDelta reports whether deltas of type t carry one object.
func isObjectDelta(t DeltaType) bool {
	switch t {
	case Added, Updated, Deleted, Replaced, Sync:
		return true
	}
	return false
}
