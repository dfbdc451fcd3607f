package jsondecode

import (
	"os"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/apifill"
)

// FuzzInto feeds arbitrary bytes to Into (plus the reference fallback) and
// to the reference alone, for a few object types, into empty and
// populated objects: results and errors must be identical. Run it with
//
//	go test ./internal/jsondecode -run '^$' -fuzz FuzzInto -fuzztime 5m
func FuzzInto(f *testing.F) {
	if pod, err := os.ReadFile("testdata/pod.json"); err == nil {
		f.Add(pod)
	}
	for _, s := range []string{`{}`, `null`, `{"metadata":{"name":"a","name":1}}`, `{"spec":{"containers":[{"image":"x"},{}]}}`,
		`{"type":"MODIFIED","object":{"kind":"Pod"}}`, `{"items":[{"metadata":{"labels":{"a":"b"}}}]}`} {
		f.Add([]byte(s))
	}
	protos := []func() runtime.Object{
		func() runtime.Object { return &corev1.Pod{} },
		func() runtime.Object { return &corev1.PodList{} },
		func() runtime.Object { return &appsv1.Deployment{} },
		func() runtime.Object { return &corev1.ConfigMap{} },
		func() runtime.Object { return &metav1.Status{} },
		func() runtime.Object { return &metav1.WatchEvent{} },
	}
	// Populated starting points are filled once; check copies them.
	populated := make([]runtime.Object, len(protos))
	for i, proto := range protos {
		populated[i] = proto()
		apifill.NewFiller(int64(i)).NumElements(0, 2).MaxDepth(6).Fill(populated[i])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, proto := range protos {
			check(t, data, proto())
			check(t, data, populated[i])
		}
	})
}
