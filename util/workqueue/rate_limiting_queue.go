package workqueue

import "k8s.io/utils/clock"

// TypedRateLimitingInterface is a delaying queue whose retry delays come from
// a TypedRateLimiter.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]

	// AddRateLimited adds item after the delay the rate limiter chooses.
	AddRateLimited(item T)

	// Forget makes the rate limiter stop tracking item, whether it finally
	// succeeded or was given up on. The caller still has to call Done.
	Forget(item T)

	// NumRequeues returns how many times item was requeued.
	NumRequeues(item T) int
}

// TypedRateLimitingQueueConfig holds the optional settings of
// NewTypedRateLimitingQueueWithConfig.
type TypedRateLimitingQueueConfig[T comparable] struct {
	// Name identifies the queue to the MetricsProvider. Unnamed queues report
	// no metrics.
	Name string

	// MetricsProvider replaces the provider installed with SetProvider for
	// this queue.
	MetricsProvider MetricsProvider

	// Clock measures the delays; the real clock by default.
	Clock clock.WithTicker

	// DelayingQueue, if set, is used instead of a new delaying queue.
	DelayingQueue TypedDelayingInterface[T]
}

// NewTypedRateLimitingQueue returns an unnamed rate-limiting queue. Callers
// must call Forget when they are done retrying an item, or the rate limiter
// keeps tracking it. It reports no metrics; use
// NewTypedRateLimitingQueueWithConfig with a Name for that.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig returns a rate-limiting queue
// configured by config. Callers must call Forget when they are done retrying
// an item.
func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	delaying := config.DelayingQueue
	if delaying == nil {
		// A nil Clock means the real clock there too.
		delaying = NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{Clock: config.Clock, Name: config.Name, MetricsProvider: config.MetricsProvider})
	}
	return &rateLimitingQueue[T]{TypedDelayingInterface: delaying, limiter: rateLimiter}
}

// rateLimitingQueue asks limiter how long each AddRateLimited must wait.
type rateLimitingQueue[T comparable] struct {
	TypedDelayingInterface[T]
	limiter TypedRateLimiter[T]
}

func (q *rateLimitingQueue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.limiter.When(item))
}

func (q *rateLimitingQueue[T]) NumRequeues(item T) int {
	return q.limiter.NumRequeues(item)
}

func (q *rateLimitingQueue[T]) Forget(item T) {
	q.limiter.Forget(item)
}
