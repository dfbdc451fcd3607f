package rest

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
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// BenchmarkWatchJSONPods decodes b.N MODIFIED events of a ~6 KB pod through
// Request.Watch, the server writing pre-encoded bytes: ns/op and allocs/op
// are per event. "reference" uses apimachinery's codecs as they are,
// "wirecodec" the codecs the generated clientsets use.
func BenchmarkWatchJSONPods(b *testing.B) {
	pod, err := json.Marshal(wiretest.Pod("web-5d8f7c9b6-abcde"))
	if err != nil {
		b.Fatal(err)
	}
	event := append(append([]byte(`{"type":"MODIFIED","object":`), pod...), "}\n"...)
	for _, tc := range []struct {
		name  string
		codec runtime.NegotiatedSerializer
	}{
		{"reference", wiretest.ReferenceCodecs(testCodecs.WithoutConversion())},
		{"wirecodec", testCodecs.WithoutConversion()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(event)))
			benchmarkWatch(b, tc.codec, event)
		})
	}
}

// BenchmarkWatchProtobufPods is BenchmarkWatchJSONPods in protobuf.
func BenchmarkWatchProtobufPods(b *testing.B) {
	pod := encodeAs(&testing.T{}, runtime.ContentTypeProtobuf, wiretest.Pod("web-5d8f7c9b6-abcde"))
	info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	var frame bytes.Buffer
	enc := info.StreamSerializer.Framer.NewFrameWriter(&frame)
	var event bytes.Buffer
	if err := info.StreamSerializer.Serializer.Encode(&metav1.WatchEvent{Type: "MODIFIED", Object: runtime.RawExtension{Raw: pod}}, &event); err != nil {
		b.Fatal(err)
	}
	if _, err := enc.Write(event.Bytes()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(frame.Len()))
	for _, tc := range []struct {
		name  string
		codec runtime.NegotiatedSerializer
	}{
		{"reference", wiretest.ReferenceCodecs(testCodecs.WithoutConversion())},
		{"wirecodec", testCodecs.WithoutConversion()},
	} {
		b.Run(tc.name, func(b *testing.B) { benchmarkWatchAs(b, tc.codec, runtime.ContentTypeProtobuf, frame.Bytes()) })
	}
}

func benchmarkWatch(b *testing.B, codec runtime.NegotiatedSerializer, event []byte) {
	benchmarkWatchAs(b, codec, "application/json", event)
}

func benchmarkWatchAs(b *testing.B, codec runtime.NegotiatedSerializer, mediaType string, event []byte) {
	// The stream is written in 32 KB chunks, as a server flushes.
	const perWrite = 32 * 1024
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mediaType)
		events := bytes.Repeat(event, max(1, perWrite/len(event)))
		n := b.N
		for n > 0 {
			k := min(n, len(events)/len(event))
			if _, err := w.Write(events[:k*len(event)]); err != nil {
				return
			}
			n -= k
		}
	}))
	defer srv.Close()
	config := coreV1Config(srv.URL)
	config.NegotiatedSerializer = codec
	config.AcceptContentTypes = mediaType
	client, err := RESTClientFor(config)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpuStart := processCPU(b)
	w, err := client.Get().Resource("pods").Param("watch", "true").Watch(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop()
	for range b.N {
		e := <-w.ResultChan()
		if e.Type != watch.Modified {
			b.Fatalf("event %v: %v", e.Type, e.Object)
		}
		if e.Object.(metav1.Object).GetName() == "" {
			b.Fatal("no name")
		}
	}
	b.ReportMetric(float64(processCPU(b)-cpuStart)/float64(b.N), "cpu-ns/op")
}

// processCPU returns the CPU time the process has used, which on a busy
// machine says more than the wall time.
func processCPU(b *testing.B) time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		b.Fatal(err)
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}
