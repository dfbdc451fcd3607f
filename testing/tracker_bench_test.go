package testing

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func BenchmarkTrackerUpdate(b *testing.B) {
	tr := newTestTracker(b)
	must(b, tr.Create(podsGVR, pod("ns", "p"), "ns"))
	p := mustGet(b, tr, podsGVR, "ns", "p").(*corev1.Pod)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Labels = map[string]string{"i": fmt.Sprint(i)}
		p.ResourceVersion = ""
		must(b, tr.Update(podsGVR, p, "ns"))
	}
}

func BenchmarkTrackerListFieldSelector(b *testing.B) {
	tr := newTestTracker(b)
	for i := 0; i < 1000; i++ {
		p := pod("ns", fmt.Sprintf("p%d", i))
		p.Spec.NodeName = fmt.Sprintf("n%d", i%10)
		must(b, tr.Create(podsGVR, p, "ns"))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := tr.List(podsGVR, podKind, "ns", metav1.ListOptions{FieldSelector: "spec.nodeName=n3"})
		must(b, err)
	}
}
