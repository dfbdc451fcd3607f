package rest

import (
	"bytes"
	"context"
	"io"
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

// BenchmarkReadBody reads a 3 MB body (a page of a paginated LIST) of
// unknown and of declared length, against io.ReadAll.
func BenchmarkReadBody(b *testing.B) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 3<<16)
	readers := []struct {
		name string
		read func(r io.Reader) ([]byte, error)
	}{
		{"io.ReadAll", io.ReadAll},
		{"unknown length", func(r io.Reader) ([]byte, error) { return readBody(r, -1, 0) }},
		{"unknown length, hinted", func(r io.Reader) ([]byte, error) { return readBody(r, -1, len(body)+len(body)/16) }},
		{"declared length", func(r io.Reader) ([]byte, error) { return readBody(r, int64(len(body)), 0) }},
	}
	for _, rd := range readers {
		b.Run(rd.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := rd.read(bytes.NewReader(body)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
