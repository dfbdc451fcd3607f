package workqueue

import (
	"time"

	"k8s.io/utils/clock"
)

// This file holds the untyped (item type any) API that predates generics.
// Every name here is a thin veneer over its Typed counterpart.

// Interface is a work queue of items of any comparable dynamic type.
//
// Deprecated: use TypedInterface instead.
type Interface TypedInterface[any]

// Type is the untyped work queue.
//
// Deprecated: use Typed instead.
type Type = Typed[any]

// QueueConfig holds the optional settings of NewWithConfig.
//
// Deprecated: use TypedQueueConfig instead.
type QueueConfig = TypedQueueConfig[any]

// New returns an unnamed untyped work queue.
//
// Deprecated: use NewTyped instead.
func New() *Type {
	return NewWithConfig(QueueConfig{})
}

// NewWithConfig returns an untyped work queue configured by config.
//
// Deprecated: use NewTypedWithConfig instead.
func NewWithConfig(config QueueConfig) *Type {
	return NewTypedWithConfig(config)
}

// NewNamed returns an untyped work queue reporting metrics under name.
//
// Deprecated: use NewWithConfig instead.
func NewNamed(name string) *Type {
	return NewWithConfig(QueueConfig{Name: name})
}

// DelayingInterface is an untyped work queue with AddAfter.
//
// Deprecated: use TypedDelayingInterface instead.
type DelayingInterface TypedDelayingInterface[any]

// DelayingQueueConfig holds the optional settings of
// NewDelayingQueueWithConfig.
//
// Deprecated: use TypedDelayingQueueConfig instead.
type DelayingQueueConfig = TypedDelayingQueueConfig[any]

// NewDelayingQueue returns an unnamed untyped delaying queue that reports no
// metrics.
//
// Deprecated: use NewTypedDelayingQueue instead.
func NewDelayingQueue() DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{})
}

// NewDelayingQueueWithConfig returns an untyped delaying queue configured by
// config.
//
// Deprecated: use NewTypedDelayingQueueWithConfig instead.
func NewDelayingQueueWithConfig(config DelayingQueueConfig) DelayingInterface {
	return NewTypedDelayingQueueWithConfig(config)
}

// NewDelayingQueueWithCustomQueue returns an untyped delaying queue that
// feeds q and reports metrics under name.
//
// Deprecated: use NewDelayingQueueWithConfig instead.
func NewDelayingQueueWithCustomQueue(q Interface, name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name, Queue: q})
}

// NewNamedDelayingQueue returns an untyped delaying queue reporting metrics
// under name.
//
// Deprecated: use NewDelayingQueueWithConfig instead.
func NewNamedDelayingQueue(name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name})
}

// NewDelayingQueueWithCustomClock returns an untyped delaying queue that
// measures delays with clock and reports metrics under name.
//
// Deprecated: use NewDelayingQueueWithConfig instead.
func NewDelayingQueueWithCustomClock(clock clock.WithTicker, name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name, Clock: clock})
}

// RateLimitingInterface is an untyped rate-limiting work queue.
//
// Deprecated: use TypedRateLimitingInterface instead.
type RateLimitingInterface TypedRateLimitingInterface[any]

// RateLimitingQueueConfig holds the optional settings of
// NewRateLimitingQueueWithConfig.
//
// Deprecated: use TypedRateLimitingQueueConfig instead.
type RateLimitingQueueConfig = TypedRateLimitingQueueConfig[any]

// NewRateLimitingQueue returns an unnamed untyped rate-limiting queue that
// reports no metrics. Callers must call Forget when done with an item.
//
// Deprecated: use NewTypedRateLimitingQueue instead.
func NewRateLimitingQueue(rateLimiter RateLimiter) RateLimitingInterface {
	return NewTypedRateLimitingQueue[any](rateLimiter)
}

// NewRateLimitingQueueWithConfig returns an untyped rate-limiting queue
// configured by config. Callers must call Forget when done with an item.
//
// Deprecated: use NewTypedRateLimitingQueueWithConfig instead.
func NewRateLimitingQueueWithConfig(rateLimiter RateLimiter, config RateLimitingQueueConfig) RateLimitingInterface {
	return NewTypedRateLimitingQueueWithConfig[any](rateLimiter, config)
}

// NewNamedRateLimitingQueue returns an untyped rate-limiting queue reporting
// metrics under name.
//
// Deprecated: use NewRateLimitingQueueWithConfig instead.
func NewNamedRateLimitingQueue(rateLimiter RateLimiter, name string) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{Name: name})
}

// NewRateLimitingQueueWithDelayingInterface returns an untyped rate-limiting
// queue on top of di.
//
// Deprecated: use NewRateLimitingQueueWithConfig instead.
func NewRateLimitingQueueWithDelayingInterface(di DelayingInterface, rateLimiter RateLimiter) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{DelayingQueue: di})
}

// RateLimiter is an untyped rate limiter.
//
// Deprecated: use TypedRateLimiter instead.
type RateLimiter TypedRateLimiter[any]

// BucketRateLimiter is the untyped TypedBucketRateLimiter.
//
// Deprecated: use TypedBucketRateLimiter instead.
type BucketRateLimiter = TypedBucketRateLimiter[any]

// ItemExponentialFailureRateLimiter is the untyped
// TypedItemExponentialFailureRateLimiter.
//
// Deprecated: use TypedItemExponentialFailureRateLimiter instead.
type ItemExponentialFailureRateLimiter = TypedItemExponentialFailureRateLimiter[any]

// ItemFastSlowRateLimiter is the untyped TypedItemFastSlowRateLimiter.
//
// Deprecated: use TypedItemFastSlowRateLimiter instead.
type ItemFastSlowRateLimiter = TypedItemFastSlowRateLimiter[any]

// MaxOfRateLimiter is the untyped TypedMaxOfRateLimiter.
//
// Deprecated: use TypedMaxOfRateLimiter instead.
type MaxOfRateLimiter = TypedMaxOfRateLimiter[any]

// WithMaxWaitRateLimiter is the untyped TypedWithMaxWaitRateLimiter.
//
// Deprecated: use TypedWithMaxWaitRateLimiter instead.
type WithMaxWaitRateLimiter = TypedWithMaxWaitRateLimiter[any]

// DefaultControllerRateLimiter is the untyped
// DefaultTypedControllerRateLimiter.
//
// Deprecated: use DefaultTypedControllerRateLimiter instead.
func DefaultControllerRateLimiter() RateLimiter {
	return DefaultTypedControllerRateLimiter[any]()
}

// DefaultItemBasedRateLimiter is the untyped DefaultTypedItemBasedRateLimiter.
//
// Deprecated: use DefaultTypedItemBasedRateLimiter instead.
func DefaultItemBasedRateLimiter() RateLimiter {
	return DefaultTypedItemBasedRateLimiter[any]()
}

// NewItemExponentialFailureRateLimiter is the untyped
// NewTypedItemExponentialFailureRateLimiter.
//
// Deprecated: use NewTypedItemExponentialFailureRateLimiter instead.
func NewItemExponentialFailureRateLimiter(baseDelay time.Duration, maxDelay time.Duration) RateLimiter {
	return NewTypedItemExponentialFailureRateLimiter[any](baseDelay, maxDelay)
}

// NewItemFastSlowRateLimiter is the untyped NewTypedItemFastSlowRateLimiter.
//
// Deprecated: use NewTypedItemFastSlowRateLimiter instead.
func NewItemFastSlowRateLimiter(fastDelay, slowDelay time.Duration, maxFastAttempts int) RateLimiter {
	return NewTypedItemFastSlowRateLimiter[any](fastDelay, slowDelay, maxFastAttempts)
}

// NewMaxOfRateLimiter is the untyped NewTypedMaxOfRateLimiter.
//
// Deprecated: use NewTypedMaxOfRateLimiter instead.
func NewMaxOfRateLimiter(limiters ...TypedRateLimiter[any]) RateLimiter {
	return NewTypedMaxOfRateLimiter(limiters...)
}

// NewWithMaxWaitRateLimiter is the untyped NewTypedWithMaxWaitRateLimiter.
//
// Deprecated: use NewTypedWithMaxWaitRateLimiter instead.
func NewWithMaxWaitRateLimiter(limiter RateLimiter, maxDelay time.Duration) RateLimiter {
	return NewTypedWithMaxWaitRateLimiter[any](limiter, maxDelay)
}
