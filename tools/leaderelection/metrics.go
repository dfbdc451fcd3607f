package leaderelection

import "sync"

// LeaderMetric receives leader election measurements for a named lock.
type LeaderMetric interface {
	On(name string)
	Off(name string)
	SlowpathExercised(name string)
}

// MetricsProvider creates the LeaderMetric each new elector reports to.
type MetricsProvider interface {
	NewLeaderMetric() LeaderMetric
}

// leaderMetricsAdapter is what an elector reports to; it is a no-op until a
// provider is set.
type leaderMetricsAdapter interface {
	leaderOn(name string)
	leaderOff(name string)
	slowpathExercised(name string)
}

type noMetrics struct{}

func (noMetrics) leaderOn(string)          {}
func (noMetrics) leaderOff(string)         {}
func (noMetrics) slowpathExercised(string) {}

type providedMetrics struct{ leader LeaderMetric }

func (m providedMetrics) leaderOn(name string)          { m.leader.On(name) }
func (m providedMetrics) leaderOff(name string)         { m.leader.Off(name) }
func (m providedMetrics) slowpathExercised(name string) { m.leader.SlowpathExercised(name) }

// leaderMetricsFactory holds the process-wide provider; only the first
// SetProvider call takes effect.
type leaderMetricsFactory struct {
	once     sync.Once
	mu       sync.RWMutex // guards provider
	provider MetricsProvider
}

var globalMetricsFactory = &leaderMetricsFactory{}

func (f *leaderMetricsFactory) setProvider(p MetricsProvider) {
	f.once.Do(func() {
		f.mu.Lock()
		f.provider = p
		f.mu.Unlock()
	})
}

func (f *leaderMetricsFactory) newLeaderMetrics() leaderMetricsAdapter {
	f.mu.RLock()
	p := f.provider
	f.mu.RUnlock()
	if p == nil {
		return noMetrics{}
	}
	m := p.NewLeaderMetric()
	if m == nil {
		return noMetrics{}
	}
	return providedMetrics{leader: m}
}

// SetProvider sets the metrics provider for electors created afterwards.
// Only the first call has an effect.
func SetProvider(metricsProvider MetricsProvider) {
	globalMetricsFactory.setProvider(metricsProvider)
}
