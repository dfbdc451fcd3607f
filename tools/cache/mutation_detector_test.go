package cache

import (
	"testing"
	"time"
)

func TestMutationDetectorFindsMutation(t *testing.T) {
	d := &cacheMutationDetector{name: "test", period: time.Hour, retainDuration: time.Hour}
	var failures []string
	d.failureFunc = func(msg string) { failures = append(failures, msg) }
	p := pod("ns", "a", "1", nil)
	d.AddObject(p)
	d.AddObject("not an object")
	d.CompareObjects()
	if len(failures) != 0 {
		t.Fatalf("false positive: %v", failures)
	}
	p.Labels = map[string]string{"mutated": "yes"}
	d.CompareObjects()
	if len(failures) != 1 {
		t.Errorf("mutation not detected: %v", failures)
	}
	if _, ok := NewCacheMutationDetector("x").(noopMutationDetector); !ok && !mutationDetectionEnabled {
		t.Error("detector enabled without KUBE_CACHE_MUTATION_DETECTOR")
	}
}

// TestMutationDetectorRunStops: Run checks on its ticker until stopCh is
// closed; the disabled detector does nothing.
func TestMutationDetectorRunStops(t *testing.T) {
	d := &cacheMutationDetector{name: "test", period: time.Hour, retainDuration: time.Hour}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(stop)
	}()
	close(stop)
	<-done

	var disabled MutationDetector = noopMutationDetector{}
	disabled.AddObject(pod("ns", "a", "1", nil))
	disabled.Run(stop)
}

// TestDisabledMutationDetector: unless KUBE_CACHE_MUTATION_DETECTOR is set
// the detector keeps nothing and its Run returns at once.
func TestDisabledMutationDetector(t *testing.T) {
	if mutationDetectionEnabled {
		t.Skip("KUBE_CACHE_MUTATION_DETECTOR is set")
	}
	d := NewCacheMutationDetector("disabled")
	d.AddObject(pod("ns", "a", "1", nil))
	d.Run(make(chan struct{})) // a stop channel that never closes
}
