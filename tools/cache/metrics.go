package cache

import (
	"sync"
	"sync/atomic"
)

// The metric kinds the providers below create.
type (
	// CounterMetric is a value that only goes up.
	CounterMetric interface {
		Inc()
	}

	// GaugeMetric is a value that can go up and down.
	GaugeMetric interface {
		Set(float64)
	}

	// HistogramMetric records observations into buckets.
	HistogramMetric interface {
		Observe(float64)
	}

	// SummaryMetric records individual observations.
	SummaryMetric interface {
		Observe(float64)
	}
)

// MetricsProvider creates the metrics a Reflector may record. Reflectors
// record only what the optional WatchStreamMetricsProvider extension adds
// (stalled and interrupted watch streams); the rest is accepted for
// compatibility.
type MetricsProvider interface {
	NewLastResourceVersionMetric(name string) GaugeMetric

	NewListsMetric(name string) CounterMetric
	NewItemsInListMetric(name string) SummaryMetric
	NewListDurationMetric(name string) SummaryMetric

	NewWatchesMetric(name string) CounterMetric
	NewShortWatchesMetric(name string) CounterMetric
	NewItemsInWatchMetric(name string) SummaryMetric
	NewWatchDurationMetric(name string) SummaryMetric
}

// InformerMetricsProvider creates the metrics recorded by informer queues
// and stores. Returned metrics should consult id.Reserved() before
// recording, since informers may stop while the process keeps running.
type InformerMetricsProvider interface {
	// NewQueuedItemMetric tracks how many items are waiting in the queue.
	NewQueuedItemMetric(id InformerNameAndResource) GaugeMetric

	// NewProcessingLatencyMetric tracks, in seconds, how long handling a
	// popped item takes.
	NewProcessingLatencyMetric(id InformerNameAndResource) HistogramMetric

	// NewStoreResourceVersionMetric tracks the store's resource version.
	NewStoreResourceVersionMetric(id InformerNameAndResource) GaugeMetric
}

// firstSetting is a process-wide setting that only its first set changes.
type firstSetting[T any] struct {
	once  sync.Once
	value atomic.Pointer[T]
}

func (s *firstSetting[T]) set(v T) {
	s.once.Do(func() { s.value.Store(&v) })
}

// get returns the value set, or T's zero value before any set.
func (s *firstSetting[T]) get() T {
	if p := s.value.Load(); p != nil {
		return *p
	}
	var zero T
	return zero
}

var (
	reflectorMetricsProvider firstSetting[MetricsProvider]
	informerMetricsProvider  firstSetting[InformerMetricsProvider]
)

// SetReflectorMetricsProvider installs the provider of reflector metrics.
// Only the first call has an effect.
func SetReflectorMetricsProvider(metricsProvider MetricsProvider) {
	reflectorMetricsProvider.set(metricsProvider)
}

// SetInformerMetricsProvider installs the provider used by informers created
// afterwards. Only the first call has an effect.
func SetInformerMetricsProvider(metricsProvider InformerMetricsProvider) {
	informerMetricsProvider.set(metricsProvider)
}

// reflectorMetrics returns the provider SetReflectorMetricsProvider
// installed, or one whose metrics record nothing.
func reflectorMetrics() MetricsProvider {
	if p := reflectorMetricsProvider.get(); p != nil {
		return p
	}
	return discardMetricsProvider{}
}

// globalInformerMetrics returns the provider SetInformerMetricsProvider
// installed, or nil.
func globalInformerMetrics() InformerMetricsProvider {
	return informerMetricsProvider.get()
}

// discardMetric is every metric kind, recording nothing.
type discardMetric struct{}

func (discardMetric) Inc()            {}
func (discardMetric) Set(float64)     {}
func (discardMetric) Observe(float64) {}

// discardMetricsProvider creates metrics that record nothing.
type discardMetricsProvider struct{}

func (discardMetricsProvider) NewLastResourceVersionMetric(string) GaugeMetric {
	return discardMetric{}
}
func (discardMetricsProvider) NewListsMetric(string) CounterMetric         { return discardMetric{} }
func (discardMetricsProvider) NewItemsInListMetric(string) SummaryMetric   { return discardMetric{} }
func (discardMetricsProvider) NewListDurationMetric(string) SummaryMetric  { return discardMetric{} }
func (discardMetricsProvider) NewWatchesMetric(string) CounterMetric       { return discardMetric{} }
func (discardMetricsProvider) NewShortWatchesMetric(string) CounterMetric  { return discardMetric{} }
func (discardMetricsProvider) NewItemsInWatchMetric(string) SummaryMetric  { return discardMetric{} }
func (discardMetricsProvider) NewWatchDurationMetric(string) SummaryMetric { return discardMetric{} }

// queueMetrics are the metrics a FIFO records; every field is non-nil.
type queueMetrics struct {
	queued  GaugeMetric
	latency HistogramMetric
}

// newQueueMetrics creates id's queue metrics with provider; without a
// provider or a name they record nothing.
func newQueueMetrics(id InformerNameAndResource, provider InformerMetricsProvider) queueMetrics {
	if provider == nil || id.Name() == "" {
		return queueMetrics{queued: discardMetric{}, latency: discardMetric{}}
	}
	return queueMetrics{queued: provider.NewQueuedItemMetric(id), latency: provider.NewProcessingLatencyMetric(id)}
}
