package decodebench

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeclient/client-go/bench/internal/fixture"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/protodecode"
)

// BenchmarkDecodePodPages decodes pages of 500 distinct recorded pods from
// their protobuf bytes, round robin over 20 pages (the 10,000 pods of the
// informer workloads), with client-go's decoder (the gogo-generated
// Unmarshal) and with this module's generated decoder sharing as an
// informer's cache does. It isolates decoding from the transport and the
// cache: the informer workloads include both.
func BenchmarkDecodePodPages(b *testing.B) {
	res, err := fixture.ByName("pods")
	if err != nil {
		b.Fatal(err)
	}
	const pages, perPage = 20, 500
	data := make([][]byte, pages)
	for p := range data {
		list := &corev1.PodList{}
		for i := p * perPage; i < (p+1)*perPage; i++ {
			list.Items = append(list.Items, *res.Object(i, 1, int64(100+i)).(*corev1.Pod))
		}
		if data[p], err = list.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("client-go", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			var l corev1.PodList
			if err := l.Unmarshal(data[i%pages]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kubeclient", func(b *testing.B) {
		s := intern.NewDecodeSharing(intern.NewBytes(1<<14, 16<<10))
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			var l corev1.PodList
			if _, err := protodecode.IntoSharing(data[i%pages], &l, s, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}
