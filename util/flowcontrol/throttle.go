package flowcontrol

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/utils/clock"
)

// PassiveRateLimiter decides whether an operation may proceed now, without
// ever blocking.
type PassiveRateLimiter interface {
	// TryAccept takes a token and reports true if one is available now;
	// otherwise it reports false and takes nothing.
	TryAccept() bool
	// Stop releases the limiter. A stopped limiter may refuse everything.
	Stop()
	// QPS returns the sustained rate, in operations per second.
	QPS() float32
}

// RateLimiter is a PassiveRateLimiter that can also block until an
// operation may proceed.
type RateLimiter interface {
	PassiveRateLimiter
	// Accept blocks until a token is available and takes it.
	Accept()
	// Wait blocks until a token is available and takes it, and returns nil;
	// or returns an error, taking nothing, when ctx ends first or is sure to
	// end before a token is available.
	Wait(ctx context.Context) error
}

// Clock is the time source of a blocking rate limiter: a passive clock
// that can also sleep.
type Clock interface {
	clock.PassiveClock
	Sleep(time.Duration)
}

var _ Clock = clock.RealClock{}

// NewTokenBucketRateLimiter returns a RateLimiter that lets through a
// sustained qps operations per second, with bursts of up to burst. The
// bucket starts full with burst tokens and refills at qps tokens per second.
func NewTokenBucketRateLimiter(qps float32, burst int) RateLimiter {
	return NewTokenBucketRateLimiterWithClock(qps, burst, clock.RealClock{})
}

// NewTokenBucketRateLimiterWithClock is NewTokenBucketRateLimiter with the
// time source c, for tests.
func NewTokenBucketRateLimiterWithClock(qps float32, burst int, c Clock) RateLimiter {
	return &tokenBucketRateLimiter{
		tokenBucketPassiveRateLimiter: newPassive(qps, burst, c),
		clock:                         c,
	}
}

// NewTokenBucketPassiveRateLimiter is NewTokenBucketRateLimiter for callers
// that only ever call TryAccept.
func NewTokenBucketPassiveRateLimiter(qps float32, burst int) PassiveRateLimiter {
	return NewTokenBucketPassiveRateLimiterWithClock(qps, burst, clock.RealClock{})
}

// NewTokenBucketPassiveRateLimiterWithClock is
// NewTokenBucketPassiveRateLimiter with the time source c, for tests.
func NewTokenBucketPassiveRateLimiterWithClock(qps float32, burst int, c clock.PassiveClock) PassiveRateLimiter {
	p := newPassive(qps, burst, c)
	return &p
}

func newPassive(qps float32, burst int, c clock.PassiveClock) tokenBucketPassiveRateLimiter {
	return tokenBucketPassiveRateLimiter{
		bucket: rate.NewLimiter(rate.Limit(qps), burst),
		qps:    qps,
		clock:  c,
	}
}

// tokenBucketPassiveRateLimiter is a token bucket read against an
// injectable clock. rate.Limiter does its own locking.
type tokenBucketPassiveRateLimiter struct {
	bucket *rate.Limiter
	qps    float32
	clock  clock.PassiveClock
}

// TryAccept implements PassiveRateLimiter.
func (l *tokenBucketPassiveRateLimiter) TryAccept() bool {
	return l.bucket.AllowN(l.clock.Now(), 1)
}

// Stop implements PassiveRateLimiter; a token bucket holds no resources.
func (l *tokenBucketPassiveRateLimiter) Stop() {}

// QPS implements PassiveRateLimiter.
func (l *tokenBucketPassiveRateLimiter) QPS() float32 {
	return l.qps
}

// tokenBucketRateLimiter adds blocking to tokenBucketPassiveRateLimiter.
type tokenBucketRateLimiter struct {
	tokenBucketPassiveRateLimiter
	clock Clock
}

// Accept implements RateLimiter: it reserves the next token and sleeps on
// the clock until that token is due.
func (l *tokenBucketRateLimiter) Accept() {
	now := l.clock.Now()
	l.clock.Sleep(l.bucket.ReserveN(now, 1).DelayFrom(now))
}

// timerClock is implemented by clocks that can make timers, such as
// clock.RealClock and the fake clocks of k8s.io/utils/clock/testing.
type timerClock interface {
	NewTimer(time.Duration) clock.Timer
}

// Wait implements RateLimiter. Time is read from the limiter's clock; the
// wait happens on a timer of that clock when it can make timers, and on a
// real timer otherwise.
func (l *tokenBucketRateLimiter) Wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := l.clock.Now()
	reservation := l.bucket.ReserveN(now, 1)
	if !reservation.OK() {
		return fmt.Errorf("rate limiter with burst %d can never grant a token", l.bucket.Burst())
	}
	delay := reservation.DelayFrom(now)
	if delay <= 0 {
		return nil
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < delay {
		reservation.CancelAt(now)
		return fmt.Errorf("rate limiter wait of %v would exceed the context deadline", delay)
	}

	var expired <-chan time.Time
	if tc, ok := l.clock.(timerClock); ok {
		t := tc.NewTimer(delay)
		defer t.Stop()
		expired = t.C()
	} else {
		t := time.NewTimer(delay)
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-expired:
		return nil
	case <-ctx.Done():
		reservation.CancelAt(l.clock.Now())
		return ctx.Err()
	}
}

// NewFakeAlwaysRateLimiter returns a RateLimiter that never limits.
func NewFakeAlwaysRateLimiter() RateLimiter {
	return alwaysRateLimiter{}
}

// alwaysRateLimiter accepts everything at once.
type alwaysRateLimiter struct{}

func (alwaysRateLimiter) TryAccept() bool              { return true }
func (alwaysRateLimiter) Stop()                        {}
func (alwaysRateLimiter) QPS() float32                 { return 1 }
func (alwaysRateLimiter) Accept()                      {}
func (alwaysRateLimiter) Wait(_ context.Context) error { return nil }

// errNeverAccepts is returned by the Wait of NewFakeNeverRateLimiter.
var errNeverAccepts = errors.New("rate limiter never accepts")

// NewFakeNeverRateLimiter returns a RateLimiter that never grants a token:
// TryAccept reports false, Wait fails at once, and Accept blocks until Stop
// is called.
func NewFakeNeverRateLimiter() RateLimiter {
	return &neverRateLimiter{stopped: make(chan struct{})}
}

// neverRateLimiter refuses everything.
type neverRateLimiter struct {
	// stopOnce closes stopped, which releases blocked Accept calls.
	stopOnce sync.Once
	stopped  chan struct{}
}

func (*neverRateLimiter) TryAccept() bool              { return false }
func (l *neverRateLimiter) Stop()                      { l.stopOnce.Do(func() { close(l.stopped) }) }
func (*neverRateLimiter) QPS() float32                 { return 1 }
func (l *neverRateLimiter) Accept()                    { <-l.stopped }
func (*neverRateLimiter) Wait(_ context.Context) error { return errNeverAccepts }

var (
	_ RateLimiter        = &tokenBucketRateLimiter{}
	_ RateLimiter        = alwaysRateLimiter{}
	_ RateLimiter        = &neverRateLimiter{}
	_ PassiveRateLimiter = &tokenBucketPassiveRateLimiter{}
)
