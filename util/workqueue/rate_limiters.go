package workqueue

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// TypedRateLimiter decides how long an item waits before it is retried.
type TypedRateLimiter[T comparable] interface {
	// When returns how long item should wait, counting this as a failure.
	When(item T) time.Duration
	// Forget stops tracking item, after it succeeded or was given up on.
	Forget(item T)
	// NumRequeues returns how many failures item has had.
	NumRequeues(item T) int
}

// DefaultTypedControllerRateLimiter returns the usual controller rate
// limiter: the worse of a per-item exponential backoff (5ms doubling up to
// 1000s) and an overall token bucket (10 per second, burst 100).
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// DefaultTypedItemBasedRateLimiter returns a per-item exponential backoff
// starting at 1ms and capped at 1000s.
func DefaultTypedItemBasedRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedItemExponentialFailureRateLimiter[T](time.Millisecond, 1000*time.Second)
}

// TypedBucketRateLimiter applies one token bucket to all items together.
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
}

// When reserves a token and returns how long until it is available.
func (r *TypedBucketRateLimiter[T]) When(item T) time.Duration {
	return r.Limiter.Reserve().Delay()
}

// NumRequeues is always 0: the bucket does not track items.
func (r *TypedBucketRateLimiter[T]) NumRequeues(item T) int { return 0 }

// Forget does nothing: the bucket does not track items.
func (r *TypedBucketRateLimiter[T]) Forget(item T) {}

// failureCounts counts failures per item; it is safe for concurrent use.
type failureCounts[T comparable] struct {
	mu     sync.Mutex
	counts map[T]int
}

// locked runs f with the counts, holding f.mu.
func (f *failureCounts[T]) locked(use func(counts map[T]int)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.counts == nil {
		f.counts = make(map[T]int)
	}
	use(f.counts)
}

// record counts one more failure and returns the count before it.
func (f *failureCounts[T]) record(item T) (before int) {
	f.locked(func(counts map[T]int) {
		before = counts[item]
		counts[item]++
	})
	return before
}

func (f *failureCounts[T]) get(item T) (n int) {
	f.locked(func(counts map[T]int) { n = counts[item] })
	return n
}

func (f *failureCounts[T]) forget(item T) {
	f.locked(func(counts map[T]int) { delete(counts, item) })
}

// TypedItemExponentialFailureRateLimiter delays an item by
// baseDelay*2^failures, capped at maxDelay. Giving up after too many
// failures is left to the caller.
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	failures  failureCounts[T]
	baseDelay time.Duration
	maxDelay  time.Duration
}

// NewTypedItemExponentialFailureRateLimiter returns an exponential per-item
// backoff from baseDelay up to maxDelay.
func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay time.Duration, maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{baseDelay: baseDelay, maxDelay: maxDelay}
}

func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	exp := r.failures.record(item)
	delay := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(exp))
	// float64(math.MaxInt64) is 2^63, one past the largest Duration.
	if delay >= math.MaxInt64 || time.Duration(delay) > r.maxDelay {
		return r.maxDelay
	}
	return time.Duration(delay)
}

func (r *TypedItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	return r.failures.get(item)
}

func (r *TypedItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.failures.forget(item)
}

// TypedItemFastSlowRateLimiter retries an item after fastDelay for its first
// maxFastAttempts failures and after slowDelay from then on.
type TypedItemFastSlowRateLimiter[T comparable] struct {
	failures        failureCounts[T]
	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

// NewTypedItemFastSlowRateLimiter returns a two-speed per-item rate limiter.
func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{fastDelay: fastDelay, slowDelay: slowDelay, maxFastAttempts: maxFastAttempts}
}

func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	if r.failures.record(item) < r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

func (r *TypedItemFastSlowRateLimiter[T]) NumRequeues(item T) int {
	return r.failures.get(item)
}

func (r *TypedItemFastSlowRateLimiter[T]) Forget(item T) {
	r.failures.forget(item)
}

// TypedMaxOfRateLimiter consults every limiter and uses the longest delay.
// Combined with a token bucket, an item delayed longer by another limiter
// still consumed a token, so the bucket's burst may seem exceeded.
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// NewTypedMaxOfRateLimiter combines limiters, taking the worst answer.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	return &TypedMaxOfRateLimiter[T]{limiters: limiters}
}

func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	most := 0
	for _, l := range r.limiters {
		most = max(most, l.NumRequeues(item))
	}
	return most
}

func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// TypedWithMaxWaitRateLimiter caps the delays of another limiter at maxDelay.
type TypedWithMaxWaitRateLimiter[T comparable] struct {
	limiter  TypedRateLimiter[T]
	maxDelay time.Duration
}

// NewTypedWithMaxWaitRateLimiter caps limiter's delays at maxDelay.
func NewTypedWithMaxWaitRateLimiter[T comparable](limiter TypedRateLimiter[T], maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedWithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

func (w TypedWithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	return min(w.limiter.When(item), w.maxDelay)
}

func (w TypedWithMaxWaitRateLimiter[T]) Forget(item T) {
	w.limiter.Forget(item)
}

func (w TypedWithMaxWaitRateLimiter[T]) NumRequeues(item T) int {
	return w.limiter.NumRequeues(item)
}
