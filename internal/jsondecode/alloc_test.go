package jsondecode

import (
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestIntoAllocatesLessThanTheReference guards the decoder's main saving:
// decoding the pod fixture must take under half the reference's
// allocations, and an empty document none.
func TestIntoAllocatesLessThanTheReference(t *testing.T) {
	data, err := os.ReadFile("testdata/pod.json")
	if err != nil {
		t.Fatal(err)
	}
	// Interned strings are part of the saving measured.
	t.Cleanup(fastpath.Interning.Set(true))
	ref := testing.AllocsPerRun(20, func() {
		var pod corev1.Pod
		_ = reference(data, &pod)
	})
	into := testing.AllocsPerRun(20, func() {
		var pod corev1.Pod
		_, _ = Into(data, &pod)
	})
	if into*2 > ref {
		t.Errorf("Into allocates %v times per pod, the reference %v: want under half", into, ref)
	}
	if raceDetector {
		// The race detector's sync.Pool drops a quarter of what is put
		// back, so the pooled lexer is now and then a new one.
		return
	}
	var pod corev1.Pod
	empty := []byte(`{}`)
	if n := testing.AllocsPerRun(20, func() { _, _ = Into(empty, &pod) }); n != 0 {
		t.Errorf("Into of {} allocates %v times, want 0", n)
	}
}
