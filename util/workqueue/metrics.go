package workqueue

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// CounterMetric is a value that only ever increases.
type CounterMetric interface {
	Inc()
}

// GaugeMetric is a value that can move up and down by one.
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is a value that is set outright. It is separate from
// GaugeMetric so that existing GaugeMetric implementations keep compiling.
type SettableGaugeMetric interface {
	Set(float64)
}

// SummaryMetric records individual observations.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric records individual observations into buckets.
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider creates the metrics a named queue reports. Every method
// receives the queue's name.
type MetricsProvider interface {
	NewDepthMetric(name string) GaugeMetric
	NewAddsMetric(name string) CounterMetric
	NewLatencyMetric(name string) HistogramMetric
	NewWorkDurationMetric(name string) HistogramMetric
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	NewRetriesMetric(name string) CounterMetric
}

// discardProvider is the provider used until SetProvider is called. Queues
// built with it report nothing and start no metrics goroutine.
type discardProvider struct{}

type discardMetric struct{}

func (discardMetric) Inc()            {}
func (discardMetric) Dec()            {}
func (discardMetric) Set(float64)     {}
func (discardMetric) Observe(float64) {}

func (discardProvider) NewDepthMetric(string) GaugeMetric       { return discardMetric{} }
func (discardProvider) NewAddsMetric(string) CounterMetric      { return discardMetric{} }
func (discardProvider) NewLatencyMetric(string) HistogramMetric { return discardMetric{} }
func (discardProvider) NewRetriesMetric(string) CounterMetric   { return discardMetric{} }
func (discardProvider) NewWorkDurationMetric(string) HistogramMetric {
	return discardMetric{}
}
func (discardProvider) NewUnfinishedWorkSecondsMetric(string) SettableGaugeMetric {
	return discardMetric{}
}
func (discardProvider) NewLongestRunningProcessorSecondsMetric(string) SettableGaugeMetric {
	return discardMetric{}
}

// globalProvider is the provider for queues whose config names none. It is
// written once, by SetProvider, and read under globalProviderMu.
var (
	globalProviderMu  sync.RWMutex
	globalProvider    MetricsProvider = discardProvider{}
	globalProviderSet sync.Once
)

// SetProvider installs the MetricsProvider used by every queue created
// afterwards without an explicit provider. Only the first call counts.
func SetProvider(metricsProvider MetricsProvider) {
	globalProviderSet.Do(func() {
		globalProviderMu.Lock()
		globalProvider = metricsProvider
		globalProviderMu.Unlock()
	})
}

// providerOrGlobal returns p, or the global provider when p is nil.
func providerOrGlobal(p MetricsProvider) MetricsProvider {
	if p != nil {
		return p
	}
	globalProviderMu.RLock()
	defer globalProviderMu.RUnlock()
	return globalProvider
}

// queueMetrics records the metrics of one Typed queue. All methods are
// called with the queue's lock held, which also guards the two time maps.
type queueMetrics[T comparable] struct {
	clock clock.Clock

	depth                   GaugeMetric
	adds                    CounterMetric
	latency                 HistogramMetric
	workDuration            HistogramMetric
	unfinishedWorkSeconds   SettableGaugeMetric
	longestRunningProcessor SettableGaugeMetric

	// queuedAt holds when each queued item was first added; startedAt holds
	// when each in-flight item was handed to a worker.
	queuedAt  map[T]time.Time
	startedAt map[T]time.Time
}

// newQueueMetrics returns nil (no metrics) for an unnamed queue or the
// discarding provider.
func newQueueMetrics[T comparable](p MetricsProvider, name string, c clock.Clock) *queueMetrics[T] {
	if name == "" {
		return nil
	}
	if _, discard := p.(discardProvider); discard {
		return nil
	}
	m := &queueMetrics[T]{clock: c, queuedAt: map[T]time.Time{}, startedAt: map[T]time.Time{}}
	m.depth, m.adds = p.NewDepthMetric(name), p.NewAddsMetric(name)
	m.latency, m.workDuration = p.NewLatencyMetric(name), p.NewWorkDurationMetric(name)
	m.unfinishedWorkSeconds = p.NewUnfinishedWorkSecondsMetric(name)
	m.longestRunningProcessor = p.NewLongestRunningProcessorSecondsMetric(name)
	return m
}

func (m *queueMetrics[T]) added(item T) {
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.queuedAt[item]; !ok {
		m.queuedAt[item] = m.clock.Now()
	}
}

func (m *queueMetrics[T]) handedOut(item T) {
	m.depth.Dec()
	now := m.clock.Now()
	m.startedAt[item] = now
	if at, ok := m.queuedAt[item]; ok {
		m.latency.Observe(now.Sub(at).Seconds())
		delete(m.queuedAt, item)
	}
}

func (m *queueMetrics[T]) finished(item T) {
	if at, ok := m.startedAt[item]; ok {
		m.workDuration.Observe(m.clock.Since(at).Seconds())
		delete(m.startedAt, item)
	}
}

// publishUnfinished sets the total and the longest time that the in-flight
// items have been processed so far.
func (m *queueMetrics[T]) publishUnfinished() {
	now := m.clock.Now()
	var total, longest float64
	for _, at := range m.startedAt {
		age := now.Sub(at).Seconds()
		total += age
		if age > longest {
			longest = age
		}
	}
	m.unfinishedWorkSeconds.Set(total)
	m.longestRunningProcessor.Set(longest)
}

// newRetriesMetric returns the retries counter of a named delaying queue, or
// nil when the queue is unnamed.
func newRetriesMetric(name string, p MetricsProvider) CounterMetric {
	if name == "" {
		return nil
	}
	p = providerOrGlobal(p)
	if _, discard := p.(discardProvider); discard {
		return nil
	}
	return p.NewRetriesMetric(name)
}
