package cache

import (
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// recordingMetrics counts queue gauge updates.
type recordingMetrics struct {
	mu     sync.Mutex
	queued []float64
}

type gaugeFunc func(float64)

func (g gaugeFunc) Set(v float64) { g(v) }

func (g gaugeFunc) Observe(v float64) {}

func (m *recordingMetrics) NewQueuedItemMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(v float64) { m.mu.Lock(); m.queued = append(m.queued, v); m.mu.Unlock() })
}

func (m *recordingMetrics) NewProcessingLatencyMetric(InformerNameAndResource) HistogramMetric {
	return gaugeFunc(func(float64) {})
}

func (m *recordingMetrics) NewStoreResourceVersionMetric(InformerNameAndResource) GaugeMetric {
	return gaugeFunc(func(float64) {})
}

func TestRealFIFOMetrics(t *testing.T) {
	ResetInformerNamesForTesting()
	defer ResetInformerNamesForTesting()
	n, _ := NewInformerName("metrics")
	m := &recordingMetrics{}
	f := NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Identifier: n.WithResource(schema.GroupVersionResource{Resource: "pods"}), MetricsProvider: m})
	_ = f.Add(pod("ns", "a", "1", nil))
	_ = f.Add(pod("ns", "b", "1", nil))
	if len(m.queued) != 2 || m.queued[1] != 2 {
		t.Errorf("queued gauge = %v", m.queued)
	}
	if f.Name() != "metrics" {
		t.Errorf("Name() = %q", f.Name())
	}
}

func TestRealFIFOPanickingProcessorUnlockWhileProcessing(t *testing.T) {
	f := NewRealFIFOWithOptions(RealFIFOOptions{KeyFunction: MetaNamespaceKeyFunc, AtomicEvents: true, UnlockWhileProcessing: true})
	for _, name := range []string{"a", "b"} {
		if err := f.Add(pod("ns", name, "1", nil)); err != nil {
			t.Fatal(err)
		}
	}
	popPanicking := func() (recovered interface{}) {
		defer func() { recovered = recover() }()
		_, _ = f.Pop(func(interface{}, bool) error { panic("handler failed") })
		return nil
	}
	if got := popPanicking(); got != "handler failed" {
		t.Fatalf("recovered %v, want the processor's panic", got)
	}
	// The queue must still be usable: its lock was released exactly once.
	var popped string
	if _, err := f.Pop(func(obj interface{}, _ bool) error {
		popped = obj.(Deltas).Newest().Object.(*v1.Pod).Name
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if popped != "b" {
		t.Errorf("popped %q, want b", popped)
	}
	if err := f.Add(pod("ns", "c", "2", nil)); err != nil {
		t.Errorf("Add after panic: %v", err)
	}
}
