package cache

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
)

// Stalled watches. A server can leave a watch open and send nothing: a
// half-dead connection, a stuck proxy, an apiserver that lost its etcd
// watch. Without a check the reflector would wait until the server-side
// watch timeout (5 to 10 minutes) or, over a dead HTTP/1.1 connection,
// indefinitely, and its store would silently go stale.
//
// The reflector asks every watch for bookmarks, and kube-apiserver sends a
// bookmark about once a minute on a watch that has no events, so a healthy
// watch is never silent for long. A watch that brings neither an event nor
// a bookmark for the watch stall timeout (3 minutes by default: three
// missed bookmarks) is stopped, logged and counted, and the reflector
// resumes watching from the last resource version it reached; nothing is
// relisted unless the server says that version is gone. Servers that
// send no bookmarks (a resource served without the watch cache, some
// aggregated APIs) make a quiet watch restart once per timeout, which
// costs one watch request.
//
// Detection is limited to what it is for, so that no program written for
// client-go sees a watch stopped under it: only a watch this library reads
// from the network (a watchstream.Stream, what the REST clients' Watch
// returns) is checked, never a watch.Interface a program made itself
// (watch.NewFake, a ListWatch of its own, a wrapper), and only on the real
// clock: a reflector given a clock of the caller's (ReflectorOptions.Clock,
// which tests use to move time) never declares a watch stalled.
//
// A watch whose stream was cut inside an event ends like any other closed
// watch, and is resumed from the last resource version as well; the cut
// is logged and counted (watchHealth.interrupted).

// defaultWatchStallTimeout is the watch stall timeout until
// SetWatchStallTimeout changes it.
const defaultWatchStallTimeout = 3 * time.Minute

// watchStallTimeout holds the current setting, in nanoseconds.
var watchStallTimeout atomic.Int64

func init() { watchStallTimeout.Store(int64(defaultWatchStallTimeout)) }

// SetWatchStallTimeout sets how long a watch of a Reflector created
// afterwards (including those inside informers) may go without any event
// or bookmark before the Reflector stops it and resumes from the last
// resource version it reached. The default is three minutes, three times
// the interval at which kube-apiserver sends bookmarks on a quiet watch.
// Zero or a negative value turns stall detection off, which is client-go's
// behaviour. It returns the previous setting and is safe for concurrent
// use.
func SetWatchStallTimeout(timeout time.Duration) (previous time.Duration) {
	if timeout < 0 {
		timeout = 0
	}
	return time.Duration(watchStallTimeout.Swap(int64(timeout)))
}

// stallClockFor returns the clock the stall detection of a reflector
// running on c uses: the real clock when c is the real clock, and nil (no
// detection) for any other.
func stallClockFor(c clock.Clock) clock.Clock {
	switch c.(type) {
	case clock.RealClock, *clock.RealClock:
		return clock.RealClock{}
	}
	return nil
}

// currentWatchStallTimeout returns the setting new reflectors take.
func currentWatchStallTimeout() time.Duration {
	return time.Duration(watchStallTimeout.Load())
}

// WatchStreamMetricsProvider is an optional extension of MetricsProvider:
// when the provider given to SetReflectorMetricsProvider implements it,
// reflectors count the watch streams they abandon.
type WatchStreamMetricsProvider interface {
	// NewStalledWatchesMetric counts the watches of the named reflector
	// that stayed silent past the watch stall timeout.
	NewStalledWatchesMetric(name string) CounterMetric
	// NewInterruptedWatchesMetric counts the watches of the named reflector
	// that ended because the client could not decode the stream, such as
	// a stream cut off inside an event.
	NewInterruptedWatchesMetric(name string) CounterMetric
}

// watchHealth records a reflector's abandoned watch streams: in counters
// of its own and in the metrics of the installed provider, if it has
// them.
type watchHealth struct {
	stalledWatches     atomic.Int64
	interruptedWatches atomic.Int64
	stalledMetric      CounterMetric
	interruptedMetric  CounterMetric
}

func newWatchHealth(name string, provider MetricsProvider) *watchHealth {
	h := &watchHealth{stalledMetric: discardMetric{}, interruptedMetric: discardMetric{}}
	if p, ok := provider.(WatchStreamMetricsProvider); ok {
		h.stalledMetric = p.NewStalledWatchesMetric(name)
		h.interruptedMetric = p.NewInterruptedWatchesMetric(name)
	}
	return h
}

func (h *watchHealth) stalled(r *Reflector, after time.Duration) {
	h.stalledWatches.Add(1)
	h.stalledMetric.Inc()
	r.logger.Info("Watch stalled: no event or bookmark received, restarting it from the last resource version",
		"reflector", r.name, "type", r.typeDescription, "silentFor", after, "resourceVersion", r.LastSyncResourceVersion())
}

func (h *watchHealth) interrupted(r *Reflector, err error) {
	h.interruptedWatches.Add(1)
	h.interruptedMetric.Inc()
	r.logger.Info("Watch stream broke off inside an event", "reflector", r.name, "type", r.typeDescription, "err", err)
}

// clientWatchDecodingCause is the cause type of the statuses the rest
// client's watch reports when it cannot decode the stream.
const clientWatchDecodingCause metav1.CauseType = "ClientWatchDecoding"

// streamBrokeOff reports whether a watch.Error status says that the client
// could not decode the stream, as when the connection is cut inside an
// event. A read that failed because the request's context ended is the
// caller stopping the watch, not a cut: a stopping informer's request
// context can end just before the context the reflector checks.
func streamBrokeOff(status *metav1.Status) bool {
	if strings.Contains(status.Message, context.Canceled.Error()) {
		return false
	}
	if status.Details != nil {
		for _, cause := range status.Details.Causes {
			if cause.Type == clientWatchDecodingCause {
				return true
			}
		}
	}
	return strings.Contains(status.Message, io.ErrUnexpectedEOF.Error())
}
