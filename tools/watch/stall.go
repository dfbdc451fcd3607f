package watch

import (
	"context"
	"time"

	"k8s.io/utils/clock"
)

// apiserverBookmarkInterval is how often kube-apiserver sends a bookmark on
// a watch that asked for them (AllowWatchBookmarks), whether or not the
// watched objects changed: about once a minute.
const apiserverBookmarkInterval = time.Minute

// DefaultStallTimeout is how long a RetryWatcher waits, by default, for an
// event or a bookmark before it declares the watch stream stalled, stops it
// and resumes from the last resource version. A RetryWatcher always asks
// for bookmarks, and kube-apiserver sends one about every minute
// (apiserverBookmarkInterval) on an otherwise quiet watch; the timeout is
// two intervals plus half of one, so that one late or lost bookmark never
// restarts a healthy watch, while a stream that stalls (a server or proxy
// that keeps the connection open and sends nothing, a half-dead TCP
// connection) is noticed within minutes instead of never.
//
// A server that never sends bookmarks makes a quiet watch restart once per
// timeout; that costs a request and loses nothing. Turn detection off with
// WithStallTimeout(ctx, 0) for such servers.
//
// Only a watch this library reads from the network (what the REST
// clients' Watch returns) is checked: a watch.Interface the program made
// itself, such as a fake one in a test, is never declared stalled.
//
// client-go has no stall detection: this is an addition of this module.
const DefaultStallTimeout = 2*apiserverBookmarkInterval + apiserverBookmarkInterval/2

// stallTimeoutKey is the context key of WithStallTimeout.
type stallTimeoutKey struct{}

// WithStallTimeout returns a copy of ctx that sets the stall timeout of the
// RetryWatchers created with it (NewRetryWatcherWithContext, Until): a watch
// stream on which neither an event nor a bookmark arrives for timeout is
// stopped and reopened from the last resource version, with a log line. A
// timeout of zero or less turns detection off, as in client-go. Without
// this setting the timeout is DefaultStallTimeout.
//
// This function is an addition of this module; client-go has no
// counterpart.
func WithStallTimeout(ctx context.Context, timeout time.Duration) context.Context {
	return context.WithValue(ctx, stallTimeoutKey{}, timeout)
}

// stallTimeoutFrom returns the stall timeout ctx sets; zero means off.
func stallTimeoutFrom(ctx context.Context) time.Duration {
	if timeout, ok := ctx.Value(stallTimeoutKey{}).(time.Duration); ok {
		return max(timeout, 0)
	}
	return DefaultStallTimeout
}

// stallDetector tells when a stream has been silent for its timeout. It
// arms one timer per stream and, instead of resetting the timer on every
// event, records the time of the last one and re-arms the timer for the
// remainder when it fires early. It is used by one goroutine.
type stallDetector struct {
	clock   clock.Clock
	timeout time.Duration // 0: detection is off
	timer   clock.Timer   // nil when off
	last    time.Time     // arrival of the last event or bookmark
}

func newStallDetector(c clock.Clock, timeout time.Duration) *stallDetector {
	d := &stallDetector{clock: c, timeout: timeout, last: c.Now()}
	if timeout > 0 {
		d.timer = c.NewTimer(timeout)
	}
	return d
}

// fired returns the channel on which the timer fires; nil (never ready)
// when detection is off.
func (d *stallDetector) fired() <-chan time.Time {
	if d.timer == nil {
		return nil
	}
	return d.timer.C()
}

// activity records an event or bookmark.
func (d *stallDetector) activity() {
	if d.timer != nil {
		d.last = d.clock.Now()
	}
}

// stalled is called after the timer fired. It reports whether the stream
// was silent for the whole timeout; if not, it re-arms the timer for the
// time left.
func (d *stallDetector) stalled() bool {
	silent := d.clock.Since(d.last)
	if silent >= d.timeout {
		return true
	}
	d.timer.Reset(d.timeout - silent)
	return false
}

func (d *stallDetector) stop() {
	if d.timer != nil {
		d.timer.Stop()
	}
}
