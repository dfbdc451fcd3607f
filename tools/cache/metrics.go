package cache

import "sync"

// GaugeMetric is a value that can go up and down.
type GaugeMetric interface {
	Set(float64)
}

// CounterMetric is a value that only goes up.
type CounterMetric interface {
	Inc()
}

// SummaryMetric records individual observations.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric records observations into buckets.
type HistogramMetric interface {
	Observe(float64)
}

type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Dec()            {}
func (noopMetric) Observe(float64) {}
func (noopMetric) Set(float64)     {}

// MetricsProvider creates the metrics a Reflector records.
type MetricsProvider interface {
	NewListsMetric(name string) CounterMetric
	NewListDurationMetric(name string) SummaryMetric
	NewItemsInListMetric(name string) SummaryMetric

	NewWatchesMetric(name string) CounterMetric
	NewShortWatchesMetric(name string) CounterMetric
	NewWatchDurationMetric(name string) SummaryMetric
	NewItemsInWatchMetric(name string) SummaryMetric

	NewLastResourceVersionMetric(name string) GaugeMetric
}

type noopMetricsProvider struct{}

func (noopMetricsProvider) NewListsMetric(string) CounterMetric             { return noopMetric{} }
func (noopMetricsProvider) NewListDurationMetric(string) SummaryMetric      { return noopMetric{} }
func (noopMetricsProvider) NewItemsInListMetric(string) SummaryMetric       { return noopMetric{} }
func (noopMetricsProvider) NewWatchesMetric(string) CounterMetric           { return noopMetric{} }
func (noopMetricsProvider) NewShortWatchesMetric(string) CounterMetric      { return noopMetric{} }
func (noopMetricsProvider) NewWatchDurationMetric(string) SummaryMetric     { return noopMetric{} }
func (noopMetricsProvider) NewItemsInWatchMetric(string) SummaryMetric      { return noopMetric{} }
func (noopMetricsProvider) NewLastResourceVersionMetric(string) GaugeMetric { return noopMetric{} }

// reflectorMetricsFactory holds the process-wide reflector MetricsProvider.
var reflectorMetricsFactory = struct {
	once     sync.Once
	mu       sync.Mutex
	provider MetricsProvider
}{provider: noopMetricsProvider{}}

// SetReflectorMetricsProvider installs the provider of reflector metrics.
// Only the first call has an effect.
func SetReflectorMetricsProvider(metricsProvider MetricsProvider) {
	reflectorMetricsFactory.once.Do(func() {
		reflectorMetricsFactory.mu.Lock()
		defer reflectorMetricsFactory.mu.Unlock()
		reflectorMetricsFactory.provider = metricsProvider
	})
}

func reflectorMetrics() MetricsProvider {
	reflectorMetricsFactory.mu.Lock()
	defer reflectorMetricsFactory.mu.Unlock()
	return reflectorMetricsFactory.provider
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

var informerMetricsFactory = struct {
	once     sync.Once
	mu       sync.Mutex
	provider InformerMetricsProvider
}{}

// SetInformerMetricsProvider installs the provider used by informers created
// afterwards. Only the first call has an effect.
func SetInformerMetricsProvider(metricsProvider InformerMetricsProvider) {
	informerMetricsFactory.once.Do(func() {
		informerMetricsFactory.mu.Lock()
		defer informerMetricsFactory.mu.Unlock()
		informerMetricsFactory.provider = metricsProvider
	})
}

func globalInformerMetrics() InformerMetricsProvider {
	informerMetricsFactory.mu.Lock()
	defer informerMetricsFactory.mu.Unlock()
	return informerMetricsFactory.provider
}

// queueMetrics are the metrics a FIFO records; every field is non-nil.
type queueMetrics struct {
	queued  GaugeMetric
	latency HistogramMetric
}

func newQueueMetrics(id InformerNameAndResource, provider InformerMetricsProvider) queueMetrics {
	if provider == nil || id.Name() == "" {
		return queueMetrics{queued: noopMetric{}, latency: noopMetric{}}
	}
	return queueMetrics{
		queued:  provider.NewQueuedItemMetric(id),
		latency: provider.NewProcessingLatencyMetric(id),
	}
}
