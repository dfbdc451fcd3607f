package cache

import "testing"

func TestFirstSettingKeepsTheFirstValue(t *testing.T) {
	var s firstSetting[string]
	if s.get() != "" {
		t.Error("unset value is not the zero value")
	}
	s.set("first")
	s.set("second")
	if got := s.get(); got != "first" {
		t.Errorf("get = %q, want the first value", got)
	}
}

func TestDiscardMetric(t *testing.T) {
	m := discardMetric{}
	m.Inc()
	m.Set(1)
	m.Observe(1)
	q := newQueueMetrics(InformerNameAndResource{}, &rvGauges{})
	if _, ok := q.queued.(discardMetric); !ok {
		t.Errorf("an unnamed queue records metrics: %T", q.queued)
	}
}

// The process-wide setters keep their first value; the reflector provider
// is set once here (nothing in this package reads it).
func TestSetReflectorMetricsProvider(t *testing.T) {
	SetReflectorMetricsProvider(nil)
	SetReflectorMetricsProvider(nil)
	if reflectorMetricsProvider.get() != nil {
		t.Error("provider set")
	}
}
