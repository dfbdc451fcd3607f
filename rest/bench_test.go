package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

func BenchmarkRequestURL(b *testing.B) {
	c, err := RESTClientFor(coreV1Config("https://example.com"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = c.Get().Namespace("default").Resource("pods").Name("web").Param("limit", "10").URL()
	}
}

func BenchmarkDoIntoPod(b *testing.B) {
	body := encodeAs(&testing.T{}, "application/json", testPod("web"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c, err := RESTClientFor(coreV1Config(srv.URL))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var pod corev1.Pod
		if err := c.Get().Namespace("default").Resource("pods").Name("web").Do(ctx).Into(&pod); err != nil {
			b.Fatal(err)
		}
	}
}
