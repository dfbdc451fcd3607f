package intern

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// recordedPods returns n pods made from the pods a kube-apiserver returned
// (bench/testdata/pod.list.json), each with its own name and UID.
func recordedPods(tb testing.TB, n int) []*corev1.Pod {
	tb.Helper()
	data, err := os.ReadFile("../../bench/testdata/pod.list.json")
	if err != nil {
		tb.Fatal(err)
	}
	var list corev1.PodList
	if err := json.Unmarshal(data, &list); err != nil {
		tb.Fatal(err)
	}
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		p := list.Items[i%len(list.Items)].DeepCopy()
		p.Name = fmt.Sprintf("%s-%d", p.Name, i)
		p.UID = "uid-" + p.UID + p.UID[:i%8]
		pods[i] = p
	}
	return pods
}

// BenchmarkShareRecorded shares pods as a kube-apiserver returns them,
// typed and unstructured, each a fresh copy, as an informer's cache gets
// them.
func BenchmarkShareRecorded(b *testing.B) {
	const n = 256
	src := recordedPods(b, n)
	for _, dedup := range []bool{false, true} {
		b.Run(fmt.Sprintf("typed/dedup=%v", dedup), func(b *testing.B) {
			s := NewSharer(dedup)
			pods := make([]*corev1.Pod, n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if i%n == 0 {
					b.StopTimer()
					for j := range pods {
						pods[j] = src[j].DeepCopy()
					}
					b.StartTimer()
				}
				s.Copy(pods[i%n])
			}
		})
	}
	// Shared pods shared again: what sharing costs when the decoder has
	// interned every string already.
	for _, dedup := range []bool{false, true} {
		b.Run(fmt.Sprintf("typed-interned/dedup=%v", dedup), func(b *testing.B) {
			s := NewSharer(dedup)
			pods := make([]*corev1.Pod, n)
			for j := range pods {
				pods[j] = src[j].DeepCopy()
				s.Copy(pods[j])
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Copy(pods[i%n])
			}
		})
	}
	uns := make([]*unstructured.Unstructured, n)
	for i := range uns {
		m, err := toUnstructured(src[i])
		if err != nil {
			b.Fatal(err)
		}
		uns[i] = m
	}
	for _, dedup := range []bool{false, true} {
		b.Run(fmt.Sprintf("unstructured/dedup=%v", dedup), func(b *testing.B) {
			s := NewSharer(dedup)
			objs := make([]*unstructured.Unstructured, n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if i%n == 0 {
					b.StopTimer()
					for j := range objs {
						objs[j] = uns[j].DeepCopy()
					}
					b.StartTimer()
				}
				s.Copy(objs[i%n])
			}
		})
	}
}

func toUnstructured(p *corev1.Pod) (*unstructured.Unstructured, error) {
	p = p.DeepCopy()
	p.APIVersion, p.Kind = "v1", "Pod"
	data, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	return u, u.UnmarshalJSON(data)
}
