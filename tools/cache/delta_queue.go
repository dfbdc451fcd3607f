package cache

import (
	"fmt"
	"sync"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// deltaQueue is the part DeltaFIFO and RealFIFO share: keying, the
// transform, the deletions a Replace derives from what is queued and
// known, the Sync deltas of a Resync, the initial-sync bookkeeping and
// closing. How pending deltas are kept and handed out is the queue's
// deltaOrder: per object (DeltaFIFO) or as one stream (RealFIFO).
//
// lock guards every field and the order; cond, bound to lock, is signalled
// when a delta is queued and on Close.
type deltaQueue struct {
	lock sync.RWMutex
	cond sync.Cond

	order        deltaOrder
	sync         *initialSync
	keyFunc      KeyFunc
	knownObjects KeyListerGetter
	transformer  TransformFunc
	closed       bool

	logger  klog.Logger
	metrics queueMetrics
}

// deltaOrder keeps a queue's pending deltas in the queue's order. The
// deltaQueue's lock guards it.
type deltaOrder interface {
	// add queues d, an already keyed and transformed delta of key.
	add(key string, d Delta)
	// pending is how many items Pop can still hand out.
	pending() int
	// eachQueued calls fn once per key that has deltas pending, with the
	// newest one, oldest key first.
	eachQueued(fn func(key string, newest Delta))
}

// deltaQueueConfig is what a deltaQueue is built from.
type deltaQueueConfig struct {
	name         string
	keyFunc      KeyFunc
	knownObjects KeyListerGetter
	transformer  TransformFunc
	logger       *klog.Logger
	metrics      queueMetrics
}

// init prepares q in place (it holds a lock, so it is never copied).
func (q *deltaQueue) init(order deltaOrder, c deltaQueueConfig) {
	if c.keyFunc == nil {
		c.keyFunc = MetaNamespaceKeyFunc
	}
	logger := klog.Background()
	if c.logger != nil {
		logger = *c.logger
	}
	q.cond.L = &q.lock
	q.order = order
	q.sync = newInitialSync(c.name)
	q.keyFunc = c.keyFunc
	q.knownObjects = c.knownObjects
	q.transformer = c.transformer
	q.logger = klog.LoggerWithName(logger, c.name)
	q.metrics = c.metrics
}

// The exported methods DeltaFIFO and RealFIFO share delegate to these.

func (q *deltaQueue) hasSynced() bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	return q.sync.synced()
}

func (q *deltaQueue) isClosed() bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	return q.closed
}

// close wakes blocked pops, which then return ErrFIFOClosed once nothing
// is pending.
func (q *deltaQueue) close() {
	q.lock.Lock()
	defer q.lock.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// write queues a delta of type t for obj from a plain write (Add, Update,
// or RealFIFO's Delete), which also marks the queue populated.
func (q *deltaQueue) write(t DeltaType, obj interface{}) error {
	q.lock.Lock()
	defer q.lock.Unlock()
	q.sync.markPopulated(0)
	return q.push(t, obj, true)
}

// keyOf is the key function extended to Deltas (the key of the newest
// object) and DeletedFinalStateUnknown (its recorded key).
func (q *deltaQueue) keyOf(obj interface{}) (string, error) {
	if d, ok := obj.(Deltas); ok {
		newest := d.Newest()
		if newest == nil {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = newest.Object
	}
	if tomb, ok := obj.(DeletedFinalStateUnknown); ok {
		return tomb.Key, nil
	}
	return q.keyFunc(obj)
}

// transform applies the transformer to an object entering the queue.
// Tombstones carry an object that went through it already.
func (q *deltaQueue) transform(obj interface{}) (interface{}, error) {
	if q.transformer == nil {
		return obj, nil
	}
	if _, tomb := obj.(DeletedFinalStateUnknown); tomb {
		return obj, nil
	}
	return q.transformer(obj)
}

// push keys obj, transforms it when fresh says it has not been yet, and
// queues it as a delta of type t. Every object enters the queue here,
// except the summaries of atomic RealFIFOs.
func (q *deltaQueue) push(t DeltaType, obj interface{}, fresh bool) error {
	key, err := q.keyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	if fresh {
		if obj, err = q.transform(obj); err != nil {
			return err
		}
	}
	q.order.add(key, Delta{Type: t, Object: obj})
	q.queued()
	return nil
}

// queued records that the order changed: metrics and waiting consumers.
func (q *deltaQueue) queued() {
	q.metrics.queued.Set(float64(q.order.pending()))
	q.cond.Broadcast()
}

// waitLocked blocks until something is pending or the queue is closed.
func (q *deltaQueue) waitLocked() error {
	for q.order.pending() == 0 {
		if q.closed {
			return ErrFIFOClosed
		}
		q.cond.Wait()
	}
	return nil
}

// replacement is what a Replace queues: the listed objects under their
// keys, and a tombstone for every object the queue or the consumer holds
// that the list lacks.
type replacement struct {
	listed     []interface{}
	listedKeys map[string]struct{}
	deletions  []DeletedFinalStateUnknown
}

// planReplace keys list and derives the deletions. The last state of a
// vanished object is its newest queued delta, or else the known objects'
// copy; a key whose newest queued delta already deletes it needs nothing
// more.
func (q *deltaQueue) planReplace(list []interface{}) (replacement, error) {
	plan := replacement{listed: list, listedKeys: make(map[string]struct{}, len(list))}
	for _, obj := range list {
		key, err := q.keyOf(obj)
		if err != nil {
			return plan, KeyError{obj, err}
		}
		plan.listedKeys[key] = struct{}{}
	}
	queued := map[string]struct{}{}
	q.order.eachQueued(func(key string, newest Delta) {
		queued[key] = struct{}{}
		if _, listed := plan.listedKeys[key]; listed || newest.Type == Deleted {
			return
		}
		last := newest.Object
		if tomb, ok := last.(DeletedFinalStateUnknown); ok {
			last = tomb.Obj
		}
		plan.deletions = append(plan.deletions, DeletedFinalStateUnknown{Key: key, Obj: last})
	})
	if q.knownObjects == nil {
		return plan, nil
	}
	for _, key := range q.knownObjects.ListKeys() {
		if _, listed := plan.listedKeys[key]; listed {
			continue
		}
		if _, ok := queued[key]; ok {
			continue
		}
		last, exists, err := q.knownObjects.GetByKey(key)
		switch {
		case err != nil:
			last = nil
			utilruntime.HandleErrorWithLogger(q.logger, err, "Unexpected error during lookup, placing DeleteFinalStateUnknown marker without object", "key", key)
		case !exists:
			last = nil
			q.logger.Info("Key does not exist in known objects store, placing DeleteFinalStateUnknown marker without object", "key", key)
		}
		plan.deletions = append(plan.deletions, DeletedFinalStateUnknown{Key: key, Obj: last})
	}
	return plan, nil
}

// queueListed queues every listed object as a delta of type t.
func (q *deltaQueue) queueListed(plan replacement, t DeltaType) error {
	for _, obj := range plan.listed {
		if err := q.push(t, obj, true); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

// queueDeletions queues the plan's tombstones as Deleted deltas.
func (q *deltaQueue) queueDeletions(plan replacement) error {
	for _, tomb := range plan.deletions {
		if err := q.push(Deleted, tomb, false); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

// resyncLocked queues a Sync delta for every known object that has nothing
// queued: a queued delta is newer than the consumer's copy, which a resync
// must not overtake. Sync deltas replay objects that were transformed
// already.
func (q *deltaQueue) resyncLocked() error {
	if q.knownObjects == nil {
		return nil
	}
	queued := map[string]struct{}{}
	q.order.eachQueued(func(key string, _ Delta) { queued[key] = struct{}{} })
	for _, key := range q.knownObjects.ListKeys() {
		if _, ok := queued[key]; ok {
			continue
		}
		obj, exists, err := q.knownObjects.GetByKey(key)
		if err != nil {
			utilruntime.HandleErrorWithLogger(q.logger, err, "Unexpected error during lookup, unable to queue object for sync", "key", key)
			continue
		}
		if !exists {
			q.logger.Info("Key does not exist in known objects store, unable to queue object for sync", "key", key)
			continue
		}
		if err := q.push(Sync, obj, false); err != nil {
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
}
