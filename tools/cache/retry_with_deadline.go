package cache

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// RetryWithDeadline tracks retryable errors: once one is seen, retries are
// allowed until maxRetryDuration has passed since the first of them. Errors
// that are not retryable (and successes) are not recorded and so neither
// start nor end that window; a retryable error seen at least minResetPeriod
// after the previous one starts a new window.
type RetryWithDeadline interface {
	After(error)
	ShouldRetry() bool
}

type retryWithDeadline struct {
	maxRetryDuration time.Duration
	minResetPeriod   time.Duration
	isRetryable      func(error) bool
	clock            clock.Clock

	// lock guards the fields below; zero times mean no window is open.
	lock         sync.Mutex
	firstErrorAt time.Time
	lastErrorAt  time.Time
}

// NewRetryWithDeadline returns a RetryWithDeadline. A nil isRetryable
// treats every non-nil error as retryable.
func NewRetryWithDeadline(maxRetryDuration, minResetPeriod time.Duration, isRetryable func(error) bool, clock clock.Clock) RetryWithDeadline {
	return &retryWithDeadline{
		maxRetryDuration: maxRetryDuration,
		minResetPeriod:   minResetPeriod,
		isRetryable:      isRetryable,
		clock:            clock,
	}
}

// After records the outcome of an attempt; only retryable errors count.
func (r *retryWithDeadline) After(err error) {
	retryable := err != nil
	if r.isRetryable != nil {
		retryable = r.isRetryable(err)
	}
	if !retryable {
		return
	}
	r.lock.Lock()
	defer r.lock.Unlock()
	now := r.clock.Now()
	if !r.lastErrorAt.IsZero() && now.Sub(r.lastErrorAt) >= r.minResetPeriod {
		r.firstErrorAt = time.Time{}
	}
	if r.firstErrorAt.IsZero() {
		r.firstErrorAt = now
	}
	r.lastErrorAt = now
}

// ShouldRetry reports whether the retry window opened by the first
// recorded error is still open. Once it has closed the record is cleared.
func (r *retryWithDeadline) ShouldRetry() bool {
	r.lock.Lock()
	defer r.lock.Unlock()
	if r.maxRetryDuration <= 0 || r.firstErrorAt.IsZero() {
		return false
	}
	if r.clock.Now().Sub(r.firstErrorAt) <= r.maxRetryDuration {
		return true
	}
	r.firstErrorAt, r.lastErrorAt = time.Time{}, time.Time{}
	return false
}
