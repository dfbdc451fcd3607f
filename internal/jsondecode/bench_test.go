package jsondecode

import (
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// BenchmarkDecodePod decodes a Deployment-owned pod as a kube-apiserver
// sends it (7 KB, managedFields of two managers, conditions and container
// statuses) with the reference decoder and with Into.
func BenchmarkDecodePod(b *testing.B) {
	data, err := os.ReadFile("testdata/pod.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("reference", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var pod corev1.Pod
			if err := reference(data, &pod); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("into", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var pod corev1.Pod
			if handled, err := Into(data, &pod); !handled || err != nil {
				b.Fatal(handled, err)
			}
		}
	})
}
