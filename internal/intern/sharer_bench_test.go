package intern

import (
	"encoding/json"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// BenchmarkShare reports the cost of sharing one small pod, against the
// cost of decoding it with encoding/json.
func BenchmarkShare(b *testing.B) {
	const n = 512
	data := make([][]byte, n)
	for i := range data {
		data[i] = []byte(fmt.Sprintf(podJSON, i))
	}
	decode := func(b *testing.B, i int) *corev1.Pod {
		p := &corev1.Pod{}
		if err := json.Unmarshal(data[i%n], p); err != nil {
			b.Fatal(err)
		}
		return p
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			decode(b, i)
		}
	})
	for _, dedup := range []bool{false, true} {
		b.Run(fmt.Sprintf("share/dedup=%v", dedup), func(b *testing.B) {
			s := NewSharer(dedup)
			pods := make([]*corev1.Pod, n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if i%n == 0 {
					b.StopTimer()
					for j := range pods {
						pods[j] = decode(b, j)
					}
					b.StartTimer()
				}
				s.Copy(pods[i%n])
			}
		})
	}
}
