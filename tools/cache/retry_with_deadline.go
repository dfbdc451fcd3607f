package cache

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// RetryWithDeadline decides whether an error should be retried: retryable
// errors are retried until they have persisted for longer than the maximum
// retry duration. A quiet period of at least minResetPeriod between errors
// starts the count afresh.
type RetryWithDeadline interface {
	After(error)
	ShouldRetry() bool
}

type retryWithDeadline struct {
	maxRetryDuration time.Duration
	minResetPeriod   time.Duration
	isRetryable      func(error) bool
	clock            clock.Clock

	// lock guards the fields below.
	lock         sync.Mutex
	firstErrorAt time.Time
	lastErrorAt  time.Time
	lastErr      error
}

// NewRetryWithDeadline returns a RetryWithDeadline.
func NewRetryWithDeadline(maxRetryDuration, minResetPeriod time.Duration, isRetryable func(error) bool, clock clock.Clock) RetryWithDeadline {
	return &retryWithDeadline{
		maxRetryDuration: maxRetryDuration,
		minResetPeriod:   minResetPeriod,
		isRetryable:      isRetryable,
		clock:            clock,
	}
}

// After records the outcome of an attempt; nil means success.
func (r *retryWithDeadline) After(err error) {
	r.lock.Lock()
	defer r.lock.Unlock()
	now := r.clock.Now()
	if err == nil || now.Sub(r.lastErrorAt) >= r.minResetPeriod {
		r.firstErrorAt = now
	}
	if err != nil {
		r.lastErrorAt = now
	}
	r.lastErr = err
}

// ShouldRetry reports whether the last error should be retried.
func (r *retryWithDeadline) ShouldRetry() bool {
	r.lock.Lock()
	defer r.lock.Unlock()
	if r.maxRetryDuration <= 0 || r.lastErr == nil {
		return false
	}
	if r.isRetryable != nil && !r.isRetryable(r.lastErr) {
		return false
	}
	return r.lastErrorAt.Sub(r.firstErrorAt) < r.maxRetryDuration
}
