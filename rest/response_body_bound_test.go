package rest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

	apiruntime "k8s.io/apimachinery/pkg/runtime"
)

// bytesAllocatedBy returns the bytes the process allocated while f ran.
// The rest package's tests do not run in parallel, so what it counts
// besides f is the test server's own work on the same request.
func bytesAllocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// listServer answers GET requests with the JSON body set for their path
// and query, streamed in pieces without a Content-Length, as
// kube-apiserver streams a large list.
type listServer struct {
	mu     sync.Mutex // guards bodies
	bodies map[string][]byte
}

func (s *listServer) set(requestURI string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies[requestURI] = body
}

func (s *listServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, ok := s.bodies[r.URL.RequestURI()]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", apiruntime.ContentTypeJSON)
	for rest := body; len(rest) > 0; {
		n := min(len(rest), 64<<10)
		_, _ = w.Write(rest[:n])
		rest = rest[n:]
		w.(http.Flusher).Flush()
	}
}

// podListOfSize returns the JSON of a pod list of at least n bytes.
func podListOfSize(t *testing.T, n int) []byte {
	t.Helper()
	one := len(encodeAs(t, apiruntime.ContentTypeJSON, podList(1, 0)))
	return encodeAs(t, apiruntime.ContentTypeJSON, podList(n/one+1, 0))
}

// TestSmallListAfterALargeOneAllocatesLittle reads a large list of pods
// and then small ones on the same path: a filtered list (another query)
// and the same list once it has shrunk. Neither small read may allocate
// anything near the size of the large body: what a body of unknown length
// costs follows the bytes that arrive, whatever an earlier body left as a
// hint.
func TestSmallListAfterALargeOneAllocatesLittle(t *testing.T) {
	large := podListOfSize(t, 12<<20)
	small := podListOfSize(t, 50<<10)
	s := &listServer{bodies: map[string][]byte{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := coreV1Client(t, srv)

	for _, tc := range []struct {
		name     string
		selector string // of the small list; the large one has none
	}{
		{"filtered list", "tier=db"},
		{"same list, shrunk", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			get := func() *Request {
				r := client.Get().Resource("pods")
				if tc.selector != "" {
					r = r.Param("labelSelector", tc.selector)
				}
				return r
			}
			s.set("/api/v1/pods", large)
			if body, err := client.Get().Resource("pods").DoRaw(context.Background()); err != nil || len(body) != len(large) {
				t.Fatalf("read %d bytes, %v; want %d", len(body), err, len(large))
			}
			s.set(get().URL().RequestURI(), small)
			var body []byte
			var err error
			allocated := bytesAllocatedBy(func() {
				body, err = get().DoRaw(context.Background())
			})
			if err != nil || len(body) != len(small) {
				t.Fatalf("read %d bytes, %v; want %d", len(body), err, len(small))
			}
			// The body itself, its chunks and the client's and server's
			// work on one request; the large body is 12 MiB.
			if limit := uint64(2 << 20); allocated > limit {
				t.Errorf("reading a %d-byte list after a %d-byte one allocated %d bytes, want at most %d",
					len(small), len(large), allocated, limit)
			}
		})
	}
}

// TestDeclaredLengthIsTrustedAsBytesArrive answers with a Content-Length
// far larger than the body sent before the connection closes: the client
// may preallocate a modest buffer, not the length declared.
func TestDeclaredLengthIsTrustedAsBytesArrive(t *testing.T) {
	for _, declared := range []int{8 << 20, 48 << 20, 1 << 30} {
		t.Run(fmt.Sprint(declared), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				conn, buf, err := w.(http.Hijacker).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				writeLying(buf, declared)
			}))
			defer srv.Close()
			client := coreV1Client(t, srv)
			var err error
			allocated := bytesAllocatedBy(func() {
				_, err = client.Get().Resource("pods").DoRaw(context.Background())
			})
			if err == nil {
				t.Fatal("a body shorter than its Content-Length read without an error")
			}
			if limit := uint64(4 << 20); allocated > limit {
				t.Errorf("a response declaring %d bytes and sending 100 allocated %d bytes, want at most %d",
					declared, allocated, limit)
			}
		})
	}
}

// writeLying writes a response declaring declared bytes and sending 100.
func writeLying(w *bufio.ReadWriter, declared int) {
	fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", declared)
	for range 100 {
		_ = w.WriteByte(' ')
	}
	_ = w.Flush()
}
