package rest

import (
	"context"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/kubeclient/client-go/tools/metrics"
)

// metricsRecorder captures the rest client metrics for one test. It swaps
// the package-level metric sinks, so tests using it must not run in
// parallel.
type metricsRecorder struct {
	mu            sync.Mutex
	results       []string // "code verb host"
	retries       []string // "code verb host"
	latencies     []string // "verb path"
	limiterWaits  []string // "verb path"
	requestSizes  []float64
	responseSizes []float64
}

func recordMetrics(t *testing.T) *metricsRecorder {
	t.Helper()
	m := &metricsRecorder{}
	oldResult, oldRetry, oldLatency, oldLimiter := metrics.RequestResult, metrics.RequestRetry, metrics.RequestLatency, metrics.RateLimiterLatency
	oldReqSize, oldRespSize := metrics.RequestSize, metrics.ResponseSize
	metrics.RequestResult = resultSink{m}
	metrics.RequestRetry = retrySink{m}
	metrics.RequestLatency = latencySink{m, &m.latencies}
	metrics.RateLimiterLatency = latencySink{m, &m.limiterWaits}
	metrics.RequestSize = sizeSink{m, &m.requestSizes}
	metrics.ResponseSize = sizeSink{m, &m.responseSizes}
	t.Cleanup(func() {
		metrics.RequestResult, metrics.RequestRetry, metrics.RequestLatency, metrics.RateLimiterLatency = oldResult, oldRetry, oldLatency, oldLimiter
		metrics.RequestSize, metrics.ResponseSize = oldReqSize, oldRespSize
	})
	return m
}

func (m *metricsRecorder) snapshot() metricsRecorder {
	m.mu.Lock()
	defer m.mu.Unlock()
	return metricsRecorder{
		results:       append([]string(nil), m.results...),
		retries:       append([]string(nil), m.retries...),
		latencies:     append([]string(nil), m.latencies...),
		limiterWaits:  append([]string(nil), m.limiterWaits...),
		requestSizes:  append([]float64(nil), m.requestSizes...),
		responseSizes: append([]float64(nil), m.responseSizes...),
	}
}

type resultSink struct{ m *metricsRecorder }

func (s resultSink) Increment(_ context.Context, code, method, host string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.results = append(s.m.results, code+" "+method+" "+host)
}

type retrySink struct{ m *metricsRecorder }

func (s retrySink) IncrementRetry(_ context.Context, code, method, host string) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.retries = append(s.m.retries, code+" "+method+" "+host)
}

type latencySink struct {
	m    *metricsRecorder
	into *[]string
}

func (s latencySink) Observe(_ context.Context, verb string, u url.URL, _ time.Duration) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	*s.into = append(*s.into, verb+" "+u.Path)
}

type sizeSink struct {
	m    *metricsRecorder
	into *[]float64
}

func (s sizeSink) Observe(_ context.Context, _ string, _ string, size float64) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	*s.into = append(*s.into, size)
}

// countingLimiter is a RateLimiter that never waits and counts its uses.
type countingLimiter struct {
	mu    sync.Mutex
	waits int
	err   error
}

func (l *countingLimiter) TryAccept() bool { return true }
func (l *countingLimiter) Accept()         {}
func (l *countingLimiter) Stop()           {}
func (l *countingLimiter) QPS() float32    { return 1 }
func (l *countingLimiter) Wait(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waits++
	return l.err
}
func (l *countingLimiter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waits
}

// recordingBackoff is a BackoffManagerWithContext that records the sleeps
// it is asked for instead of sleeping.
type recordingBackoff struct {
	mu      sync.Mutex
	sleeps  []time.Duration
	updates []int
}

func (b *recordingBackoff) UpdateBackoffWithContext(_ context.Context, _ *url.URL, _ error, code int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.updates = append(b.updates, code)
}

func (b *recordingBackoff) CalculateBackoffWithContext(context.Context, *url.URL) time.Duration {
	return 0
}

func (b *recordingBackoff) SleepWithContext(_ context.Context, d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d > 0 {
		b.sleeps = append(b.sleeps, d)
	}
}

func (b *recordingBackoff) recorded() []time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]time.Duration(nil), b.sleeps...)
}
