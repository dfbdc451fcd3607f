package dynamic

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
	"github.com/kubeclient/client-go/rest"
)

var podsResource = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// processCPU returns the CPU time the process has used; on a busy machine
// it says more than the wall time.
func processCPU(b *testing.B) time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		b.Fatal(err)
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// BenchmarkWatchPods decodes b.N MODIFIED events of a ~6 KB pod through the
// dynamic client: ns/op and allocs/op are per event.
func BenchmarkWatchPods(b *testing.B) {
	pod, err := json.Marshal(wiretest.Pod("web-5d8f7c9b6-abcde"))
	if err != nil {
		b.Fatal(err)
	}
	event := append(append([]byte(`{"type":"MODIFIED","object":`), pod...), "}\n"...)
	const perWrite = 32 * 1024
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		events := bytes.Repeat(event, max(1, perWrite/len(event)))
		for n := b.N; n > 0; {
			k := min(n, len(events)/len(event))
			if _, err := w.Write(events[:k*len(event)]); err != nil {
				return
			}
			n -= k
		}
	}))
	defer srv.Close()
	client, err := NewForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(event)))
	b.ReportAllocs()
	b.ResetTimer()
	cpuStart := processCPU(b)
	w, err := client.Resource(podsResource).Namespace("production").Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	for range b.N {
		if e := <-w.ResultChan(); e.Type != watch.Modified {
			b.Fatalf("event %v: %v", e.Type, e.Object)
		}
	}
	b.ReportMetric(float64(processCPU(b)-cpuStart)/float64(b.N), "cpu-ns/op")
}

// BenchmarkListPods lists 500 pods through the dynamic client: ns/op and
// allocs/op are per LIST.
func BenchmarkListPods(b *testing.B) {
	var list bytes.Buffer
	list.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[`)
	for i := range 500 {
		pod := wiretest.Pod("web-" + string(rune('a'+i%26)))
		pod.APIVersion, pod.Kind = "", ""
		data, err := json.Marshal(pod)
		if err != nil {
			b.Fatal(err)
		}
		if i > 0 {
			list.WriteByte(',')
		}
		list.Write(data)
	}
	list.WriteString("]}")
	body := list.Bytes()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	client, err := NewForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	cpuStart := processCPU(b)
	for b.Loop() {
		got, err := client.Resource(podsResource).Namespace("production").List(context.Background(), metav1.ListOptions{})
		if err != nil || len(got.Items) != 500 {
			b.Fatalf("list: %v", err)
		}
	}
	b.ReportMetric(float64(processCPU(b)-cpuStart)/float64(b.N), "cpu-ns/op")
}
