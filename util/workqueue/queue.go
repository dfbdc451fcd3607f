package workqueue

// Concurrency of Typed. Every method may be called from any goroutine.
// One lock, Typed.mu (a mutex that yields before it blocks: see
// queueLock), guards all of a queue's state: the ledger of known items,
// the FIFO ring (or the custom Queue, which is only ever called with mu
// held), the counters and the shutdown flags. Item hashes are computed
// before mu is taken, to keep the critical sections short.
//
// Get parks on Typed.cond, whose Locker takes and releases mu (see
// queue_locking.go); Add and Done signal it after unlocking, and only
// when a Get is parked. The queue owns one goroutine, and only when it
// reports metrics: publishMetrics, which ShutDown and ShutDownWithDrain
// stop and wait for.

import (
	"sync"
	"time"

	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/util/workqueue/internal/ledger"
	"github.com/kubeclient/client-go/util/workqueue/internal/ring"
)

// TypedInterface is the contract of a work queue holding items of type T.
type TypedInterface[T comparable] interface {
	Add(item T)
	Len() int
	Get() (item T, shutdown bool)
	Done(item T)
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

// TypedQueueConfig holds the optional settings of NewTypedWithConfig.
type TypedQueueConfig[T comparable] struct {
	// Name identifies the queue to the MetricsProvider. Unnamed queues report
	// no metrics.
	Name string

	// MetricsProvider replaces the provider installed with SetProvider for
	// this queue.
	MetricsProvider MetricsProvider

	// Clock is the time source for metrics; the real clock by default.
	Clock clock.WithTicker

	// Queue orders the waiting items; a FIFO by default.
	Queue Queue[T]
}

// unfinishedWorkPeriod is how often a queue with metrics publishes the
// unfinished-work and longest-running-processor gauges.
const unfinishedWorkPeriod = 500 * time.Millisecond

// Typed is a work queue of items of type t (see the package comment). Create
// one with NewTyped or NewTypedWithConfig; the zero value is not usable.
type Typed[t comparable] struct {
	// mu guards every field below it; take and release it with lock and
	// unlock, never directly.
	mu queueLock

	// cond (whose L is the queue as a queueLocker) is signalled when an
	// item becomes available, on shutdown, and when the last in-flight
	// item finishes during a drain; wakes counts the parked Gets to signal
	// when mu is released.
	cond  sync.Cond
	wakes int

	// items knows every item that waits or is in flight, and says when
	// one must be queued. An item waits in exactly one place: fifo, or
	// custom when the config set a Queue.
	items  ledger.Ledger[t]
	fifo   ring.Ring[t]
	custom Queue[t]

	inFlight     int // items handed out by Get and not yet Done
	idleGetters  int // goroutines blocked in Get
	shuttingDown bool
	drain        bool // a ShutDownWithDrain call is waiting

	metrics *queueMetrics[t] // nil when the queue reports no metrics

	clock    clock.WithTicker
	stop     chan struct{} // closed on shutdown; stops the metrics goroutine
	stopOnce sync.Once
	loops    sync.WaitGroup // the metrics goroutine
}

// NewTyped returns an unnamed FIFO work queue.
func NewTyped[T comparable]() *Typed[T] {
	return NewTypedWithConfig(TypedQueueConfig[T]{})
}

// NewTypedWithConfig returns a work queue configured by config. A named queue
// with a metrics provider runs a goroutine that publishes the unfinished-work
// gauges; it ends when the queue is shut down.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	c := config.Clock
	if c == nil {
		c = clock.RealClock{}
	}
	provider := providerOrGlobal(config.MetricsProvider)
	return newTyped(c, config.Queue, newQueueMetrics[T](provider, config.Name, c), unfinishedWorkPeriod)
}

func newTyped[T comparable](c clock.WithTicker, custom Queue[T], metrics *queueMetrics[T], period time.Duration) *Typed[T] {
	q := &Typed[T]{
		custom:  custom,
		metrics: metrics,
		clock:   c,
		stop:    make(chan struct{}),
	}
	q.mu.blockAtOnce = metrics != nil
	q.cond.L = (*queueLocker[T])(q)
	q.items.Init(custom == nil)
	if metrics != nil {
		ticker := c.NewTicker(period)
		q.loops.Go(func() { q.publishMetrics(ticker) })
	}
	return q
}

// waiting returns how many items wait for a worker. q.mu must be held.
func (q *Typed[T]) waiting() int {
	if q.custom != nil {
		return q.custom.Len()
	}
	return q.fifo.Len()
}

// enqueue puts item in line for a worker. q.mu must be held. If a Get is
// parked, it is signalled when q.mu is released, so that the woken Get
// does not at once block again on the lock still held.
func (q *Typed[T]) enqueue(item T) {
	if q.custom != nil {
		q.custom.Push(item)
	} else {
		q.fifo.Push(item)
	}
	if q.idleGetters > 0 {
		q.wakes++
	}
}

// dequeue takes the next waiting item out of line. q.mu must be held and
// an item must be waiting.
func (q *Typed[T]) dequeue() T {
	if q.custom == nil {
		q.items.HandOutNext()
		return q.fifo.Pop()
	}
	item := q.custom.Pop()
	q.items.HandOut(item)
	return item
}

// Add queues item unless it is already waiting. An item that is in flight
// is queued again when its worker calls Done. After shutdown Add does
// nothing.
func (q *Typed[T]) Add(item T) {
	h := q.items.Hash(item)
	q.lock()
	q.add(item, h)
	q.unlock()
}

// add is Add with q.mu held.
func (q *Typed[T]) add(item T, h ledger.Hash) {
	if q.shuttingDown {
		return
	}
	switch q.items.Add(item, h) {
	case ledger.AlreadyWaiting:
		// Let a custom order react to the repeat.
		if q.custom != nil {
			q.custom.Touch(item)
		}
	case ledger.AlreadyAddedAgain:
	case ledger.QueueAfterFinish:
		if q.metrics != nil {
			q.metrics.added(item)
		}
	default: // ledger.Queue
		if q.metrics != nil {
			q.metrics.added(item)
		}
		q.enqueue(item)
	}
}

// Len returns how many items wait for a worker. It is a snapshot for
// monitoring; callers must not base Add or Get decisions on it.
func (q *Typed[T]) Len() int {
	q.lock()
	defer q.unlock()
	return q.waiting()
}

// Get blocks until an item is available and hands it to the caller, who must
// call Done with it afterwards. Once the queue is shut down and empty, Get
// returns shutdown == true and the caller should stop.
func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.lock()
	defer q.unlock()
	for q.waiting() == 0 && !q.shuttingDown {
		q.idleGetters++
		q.cond.Wait()
		q.idleGetters--
	}
	if q.waiting() == 0 {
		return item, true
	}
	item = q.dequeue()
	q.inFlight++
	if q.metrics != nil {
		q.metrics.handedOut(item)
	}
	return item, false
}

// Done tells the queue that the worker finished item. If item was added
// again meanwhile, it is queued once more. Done for an item that is not in
// flight does nothing.
func (q *Typed[T]) Done(item T) {
	h := q.items.Hash(item)
	q.lock()
	q.done(item, h)
	q.unlock()
}

// done is Done with q.mu held.
func (q *Typed[T]) done(item T, h ledger.Hash) {
	outcome := q.items.Finish(item, h)
	if outcome == ledger.NotInFlight {
		return
	}
	if q.metrics != nil {
		q.metrics.finished(item)
	}
	q.inFlight--
	if outcome == ledger.QueueAgain {
		q.enqueue(item)
		return
	}
	if q.inFlight == 0 && q.drain {
		q.cond.Broadcast()
	}
}

// ShutDown makes the queue ignore further Adds. Workers keep receiving the
// items still waiting and then get shutdown == true from Get. ShutDown also
// releases a pending ShutDownWithDrain.
func (q *Typed[T]) ShutDown() {
	q.stopOnce.Do(func() { close(q.stop) })
	q.lock()
	q.drain = false
	q.shuttingDown = true
	q.cond.Broadcast()
	q.unlock()
	q.loops.Wait()
}

// ShutDownWithDrain is ShutDown that also waits until no item is in flight.
// Workers must call Done for every item they got, or it waits forever; a
// later ShutDown call stops the wait.
func (q *Typed[T]) ShutDownWithDrain() {
	q.stopOnce.Do(func() { close(q.stop) })
	q.lock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for q.inFlight > 0 && q.drain {
		q.cond.Wait()
	}
	q.unlock()
	q.loops.Wait()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Typed[T]) ShuttingDown() bool {
	q.lock()
	defer q.unlock()
	return q.shuttingDown
}

// publishMetrics runs on its own goroutine, owned by the queue, and
// publishes the unfinished-work gauges on every tick until shutdown.
func (q *Typed[T]) publishMetrics(ticker clock.Ticker) {
	defer ticker.Stop()
	for {
		select {
		case <-q.stop:
			return
		case <-ticker.C():
		}
		q.lock()
		if !q.shuttingDown {
			q.metrics.publishUnfinished()
		}
		q.unlock()
	}
}
