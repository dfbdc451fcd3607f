package rest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

const (
	// longThrottleLatency is the rate limiter wait above which the wait is
	// logged at verbosity 3.
	longThrottleLatency = 50 * time.Millisecond
	// extraLongThrottleLatency is the wait above which the wait is also
	// logged at a lower verbosity, at most once per interval.
	extraLongThrottleLatency = 1 * time.Second
)

// tryThrottle waits for the request's rate limiter, if any.
func (r *Request) tryThrottle(ctx context.Context) error {
	return r.tryThrottleWithInfo(ctx, "")
}

// tryThrottleWithInfo waits for the rate limiter, logs long waits with
// reason (why the request is sent again, for retries) and reports the wait
// to metrics.RateLimiterLatency.
func (r *Request) tryThrottleWithInfo(ctx context.Context, reason string) error {
	if r.rateLimiter == nil {
		return nil
	}

	start := time.Now()
	err := r.rateLimiter.Wait(ctx)
	// A cancelled caller is not a rate limiter failure: keep its error as is.
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("client rate limiter Wait returned an error: %w", err)
	}
	waited := time.Since(start)

	if waited > longThrottleLatency {
		if reason == "" {
			reason = "client-side throttling, not priority and fairness"
		}
		logger := klog.FromContext(ctx)
		logger.V(3).Info("Waited before sending request", "delay", waited, "reason", reason, "verb", r.verb, "URL", r.URL())
		if waited > extraLongThrottleLatency {
			longWaitLogger.info(logger, "Waited before sending request", "delay", waited, "reason", reason, "verb", r.verb, "URL", r.URL())
		}
	}
	observeRateLimiterLatency(ctx, r, waited)
	return err
}

// rateLimitedLevel is one verbosity of a rateLimitedLogger and how often it
// may be written.
type rateLimitedLevel struct {
	level       int
	minInterval time.Duration

	mu      sync.Mutex // guards lastLog
	lastLog time.Time
}

// rateLimitedLogger writes a message at the first enabled verbosity of its
// levels, but at most once per that level's interval.
type rateLimitedLogger struct {
	clock  clock.PassiveClock
	levels []*rateLimitedLevel
}

// longWaitLogger reports very long client-side throttling: at verbosity 2 at
// most every second, and at verbosity 0 at most every ten seconds.
var longWaitLogger = &rateLimitedLogger{
	clock: clock.RealClock{},
	levels: []*rateLimitedLevel{
		{level: 2, minInterval: time.Second},
		{level: 0, minInterval: 10 * time.Second},
	},
}

// claim returns the verbosity to log at, or false when the message must be
// dropped.
func (l *rateLimitedLogger) claim(logger klog.Logger) (int, bool) {
	for _, lvl := range l.levels {
		if !logger.V(lvl.level).Enabled() {
			continue
		}
		lvl.mu.Lock()
		defer lvl.mu.Unlock()
		if l.clock.Since(lvl.lastLog) < lvl.minInterval {
			return 0, false
		}
		lvl.lastLog = l.clock.Now()
		return lvl.level, true
	}
	return 0, false
}

func (l *rateLimitedLogger) info(logger klog.Logger, msg string, keysAndValues ...any) {
	if level, ok := l.claim(logger); ok {
		logger.V(level).Info(msg, keysAndValues...)
	}
}
