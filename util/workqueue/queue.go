package workqueue

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
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

// Bits of the per-item state word kept in Typed.items.
const (
	// stateDirty marks an in-flight item that was added again and must be
	// queued once more when its worker calls Done.
	stateDirty uint64 = 1 << 63
	// stateProcessing marks an in-flight item when a custom Queue is used.
	// With the built-in FIFO an item is in flight exactly when its ticket
	// (the remaining bits) is below Typed.popped.
	stateProcessing uint64 = 1 << 62
	ticketMask             = stateProcessing - 1
)

// Typed is a work queue of items of type t (see the package comment). Create
// one with NewTyped or NewTypedWithConfig; the zero value is not usable.
type Typed[t comparable] struct {
	// mu guards every field below it; cond (whose L is &mu) is signalled
	// when an item becomes available, on shutdown, and when the last
	// in-flight item finishes during a drain.
	mu   sync.Mutex
	cond sync.Cond

	// items holds one state word for every item that is waiting or in
	// flight; an item waits in exactly one place (fifo or custom).
	items itemTable[t, uint64]

	// fifo is the built-in order, used when custom is nil. Each push takes
	// the ticket pushed++, each pop advances popped, so a FIFO item whose
	// ticket is below popped has been handed to a worker.
	fifo           ring[t]
	pushed, popped uint64

	// custom is the Queue from the config, if any.
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
	q.cond.L = &q.mu
	q.items.initSeed()
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
	return q.fifo.n
}

// inFlightState reports whether state describes an item handed to a worker.
func (q *Typed[T]) inFlightState(state uint64) bool {
	if q.custom != nil {
		return state&stateProcessing != 0
	}
	return state&ticketMask < q.popped
}

// push queues item, whose state is in items slot i and which must not be
// waiting already. q.mu must be held. It reports whether a Get is parked
// and should be woken; the caller signals q.cond after unlocking, so that
// the woken Get does not at once block again on the lock still held.
func (q *Typed[T]) push(i int, item T) (wake bool) {
	if q.custom != nil {
		q.items.slots[i].val = 0
		q.custom.Push(item)
	} else {
		q.items.slots[i].val = q.pushed
		q.pushed++
		q.fifo.Push(item)
	}
	return q.idleGetters > 0
}

// Add queues item unless it is already waiting. An item that is in flight
// is queued again when its worker calls Done. After shutdown Add does
// nothing.
func (q *Typed[T]) Add(item T) {
	if q.add(item) {
		q.cond.Signal()
	}
}

// add is Add under the lock; it reports whether to wake a parked Get.
func (q *Typed[T]) add(item T) (wake bool) {
	h := q.items.hashOf(item) // outside the lock, to keep it short
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return false
	}
	i, known := q.items.upsertHashed(item, h)
	state := q.items.slots[i].val
	if known {
		if !q.inFlightState(state) {
			// Already waiting: let a custom order react to the repeat.
			if q.custom != nil {
				q.custom.Touch(item)
			}
			return false
		}
		if state&stateDirty != 0 {
			return false
		}
	}
	if q.metrics != nil {
		q.metrics.added(item)
	}
	if known {
		q.items.slots[i].val = state | stateDirty
		return false
	}
	return q.push(i, item)
}

// Len returns how many items wait for a worker. It is a snapshot for
// monitoring; callers must not base Add or Get decisions on it.
func (q *Typed[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.waiting()
}

// Get blocks until an item is available and hands it to the caller, who must
// call Done with it afterwards. Once the queue is shut down and empty, Get
// returns shutdown == true and the caller should stop.
func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.waiting() == 0 && !q.shuttingDown {
		q.idleGetters++
		q.cond.Wait()
		q.idleGetters--
	}
	if q.waiting() == 0 {
		return item, true
	}
	if q.custom != nil {
		item = q.custom.Pop()
		if i := q.items.lookup(item); i >= 0 {
			q.items.slots[i].val = stateProcessing
		}
	} else {
		item = q.fifo.Pop()
		q.popped++
	}
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
	if q.done(item) {
		q.cond.Signal()
	}
}

// done is Done under the lock; it reports whether to wake a parked Get.
func (q *Typed[T]) done(item T) (wake bool) {
	h := q.items.hashOf(item)
	q.mu.Lock()
	defer q.mu.Unlock()
	i := q.items.lookupHashed(item, h)
	if i < 0 {
		return false
	}
	state := q.items.slots[i].val
	if !q.inFlightState(state) {
		return false
	}
	if q.metrics != nil {
		q.metrics.finished(item)
	}
	q.inFlight--
	if state&stateDirty != 0 {
		return q.push(i, item)
	}
	q.items.removeAt(i)
	if q.inFlight == 0 && q.drain {
		q.cond.Broadcast()
	}
	return false
}

// ShutDown makes the queue ignore further Adds. Workers keep receiving the
// items still waiting and then get shutdown == true from Get. ShutDown also
// releases a pending ShutDownWithDrain.
func (q *Typed[T]) ShutDown() {
	q.stopOnce.Do(func() { close(q.stop) })
	q.mu.Lock()
	q.drain = false
	q.shuttingDown = true
	q.cond.Broadcast()
	q.mu.Unlock()
	q.loops.Wait()
}

// ShutDownWithDrain is ShutDown that also waits until no item is in flight.
// Workers must call Done for every item they got, or it waits forever; a
// later ShutDown call stops the wait.
func (q *Typed[T]) ShutDownWithDrain() {
	q.stopOnce.Do(func() { close(q.stop) })
	q.mu.Lock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for q.inFlight > 0 && q.drain {
		q.cond.Wait()
	}
	q.mu.Unlock()
	q.loops.Wait()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Typed[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
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
		q.mu.Lock()
		if !q.shuttingDown {
			q.metrics.publishUnfinished()
		}
		q.mu.Unlock()
	}
}
