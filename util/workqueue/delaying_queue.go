package workqueue

// Concurrency of the delaying queue. Every method may be called from any
// goroutine. delayingQueue.mu guards the heap of waiting items and the
// stopped flag; due items go into the underlying queue with mu held, so
// they keep their ready order. The queue owns one goroutine, run, which
// sleeps until the earliest ready time (or a wake from AddAfter) and moves
// due items; ShutDown and ShutDownWithDrain stop it and wait for it.

import (
	"math"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/util/workqueue/internal/delayheap"
)

// TypedDelayingInterface is a work queue that can also add an item after a
// delay, which lets controllers requeue failed items without spinning.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item to the queue once duration has passed.
	AddAfter(item T, duration time.Duration)
}

// TypedDelayingQueueConfig holds the optional settings of
// NewTypedDelayingQueueWithConfig.
type TypedDelayingQueueConfig[T comparable] struct {
	// Logger, if set, receives panics of the queue's goroutine. The queue
	// name is not added to it.
	Logger *klog.Logger

	// Name identifies the queue to the MetricsProvider. Unnamed queues report
	// no metrics.
	Name string

	// MetricsProvider replaces the provider installed with SetProvider for
	// this queue.
	MetricsProvider MetricsProvider

	// Clock measures the delays; the real clock by default.
	Clock clock.WithTicker

	// Queue receives the items whose delay has passed; a new Typed queue
	// by default.
	Queue TypedInterface[T]
}

// NewTypedDelayingQueue returns an unnamed delaying queue. It reports no
// metrics; use NewTypedDelayingQueueWithConfig with a Name for that.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// TypedNewDelayingQueue is NewTypedDelayingQueue under its old name.
//
// Deprecated: use NewTypedDelayingQueueWithConfig instead.
func TypedNewDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueue[T]()
}

// NewTypedDelayingQueueWithConfig returns a delaying queue configured by
// config. It owns one goroutine that moves items whose delay has passed into
// the underlying queue; ShutDown and ShutDownWithDrain stop it.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	if config.Clock == nil {
		config.Clock = clock.RealClock{}
	}
	if config.Queue == nil {
		config.Queue = NewTypedWithConfig(TypedQueueConfig[T]{
			Name:            config.Name,
			MetricsProvider: config.MetricsProvider,
			Clock:           config.Clock,
		})
	}
	q := &delayingQueue[T]{
		TypedInterface: config.Queue,
		clock:          config.Clock,
		epoch:          config.Clock.Now(),
		retries:        newRetriesMetric(config.Name, config.MetricsProvider),
		wake:           make(chan struct{}, 1),
		stop:           make(chan struct{}),
		loopDone:       make(chan struct{}),
	}
	q.waiting.Init()
	go q.run(config.Logger)
	return q
}

// clockSlack bounds how far the clock may move while the timer for the next
// item is armed. A bigger move (a fake clock being stepped) re-arms it, so
// a timer never ends up later than the item's ready time.
const clockSlack = time.Millisecond

// delayingQueue holds items until their ready time in front of a
// TypedInterface.
type delayingQueue[T comparable] struct {
	TypedInterface[T]

	clock   clock.WithTicker
	epoch   time.Time     // ready times are kept as offsets from it
	retries CounterMetric // nil for unnamed queues

	// mu guards waiting and stopped. Due items are added to the underlying
	// queue while mu is held, which keeps them in ready order; the
	// underlying queue never calls back, so this cannot deadlock.
	mu      sync.Mutex
	waiting delayheap.Heap[T]
	stopped bool

	wake     chan struct{} // tells run that the earliest ready time moved
	stop     chan struct{} // closed on shutdown
	stopOnce sync.Once
	loopDone chan struct{} // closed when run returns
}

// AddAfter adds item once duration has passed; a duration <= 0 adds it now.
// If item is already waiting, it keeps the earlier of the two ready times.
func (q *delayingQueue[T]) AddAfter(item T, duration time.Duration) {
	h := q.waiting.Hash(item) // outside the lock, to keep it short
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	if q.retries != nil {
		q.retries.Inc()
	}
	if duration <= 0 {
		q.Add(item)
		return
	}
	now := int64(q.clock.Since(q.epoch))
	readyAt := now + int64(duration)
	if readyAt < now { // overflow: treat as "never"
		readyAt = math.MaxInt64
	}
	// Hand over items that are already due, so that a busy queue does not
	// depend on how promptly the timer goroutine wakes up.
	q.releaseDue(now)
	if q.waiting.Schedule(item, h, readyAt) {
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
}

// ShutDown stops the delay goroutine, drops the items still waiting for
// their delay and shuts the underlying queue down.
func (q *delayingQueue[T]) ShutDown() {
	q.halt()
	q.TypedInterface.ShutDown()
	<-q.loopDone
}

// ShutDownWithDrain is ShutDown that waits, like the underlying queue's
// ShutDownWithDrain, for the in-flight items.
func (q *delayingQueue[T]) ShutDownWithDrain() {
	q.halt()
	q.TypedInterface.ShutDownWithDrain()
	<-q.loopDone
}

func (q *delayingQueue[T]) halt() {
	q.stopOnce.Do(func() {
		q.mu.Lock()
		q.stopped = true
		q.waiting.Clear() // Hash stays usable: AddAfter calls it unlocked
		q.mu.Unlock()
		close(q.stop)
	})
}

// run is the queue's goroutine. It moves every item whose ready time has
// come into the underlying queue, then sleeps until the next ready time or
// until AddAfter reports an earlier one.
func (q *delayingQueue[T]) run(logger *klog.Logger) {
	defer close(q.loopDone)
	if logger != nil {
		defer utilruntime.HandleCrashWithLogger(*logger)
	} else {
		defer utilruntime.HandleCrash()
	}

	var timer clock.Timer
	defer func() {
		if timer != nil {
			stopTimer(timer)
		}
	}()
	for {
		q.mu.Lock()
		now := q.clock.Now()
		nowOffset := int64(now.Sub(q.epoch))
		q.releaseDue(nowOffset)
		next, pending := q.waiting.Next()
		wait := time.Duration(next - nowOffset)
		q.mu.Unlock()

		if !pending {
			select {
			case <-q.stop:
				return
			case <-q.wake:
			}
			continue
		}
		if timer == nil {
			timer = q.clock.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		if q.clock.Since(now) > clockSlack {
			stopTimer(timer)
			continue
		}
		select {
		case <-q.stop:
			return
		case <-q.wake:
			stopTimer(timer)
		case <-timer.C():
		}
	}
}

// releaseDue adds every item whose ready time is at or before now (an
// offset from epoch) to the underlying queue, earliest first. q.mu must be
// held.
func (q *delayingQueue[T]) releaseDue(now int64) {
	for {
		item, ok := q.waiting.PopReady(now)
		if !ok {
			return
		}
		q.Add(item)
	}
}

// stopTimer stops t and discards a tick it may already have delivered, so
// that a later Reset starts clean. Fake clocks keep such a tick in the
// channel, and a full channel would block the fake clock's next Step.
func stopTimer(t clock.Timer) {
	if !t.Stop() {
		select {
		case <-t.C():
		default:
		}
	}
}
