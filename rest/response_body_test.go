package rest

// Tests of how Do and DoRaw read response bodies (response.go,
// request_exec.go, through internal/responsebody): which bodies go into a
// reused buffer, and what reading a body may allocate.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strconv"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/decodeonce"
	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// servedBody is what bodyServer answers at one path.
type servedBody struct {
	body        []byte
	contentType string
	status      int  // 0 is 200
	chunked     bool // no Content-Length: the body is flushed in pieces
}

// bodyServer answers each path with the body set for it.
type bodyServer struct {
	mu     sync.Mutex // guards bodies
	bodies map[string]servedBody
}

func (s *bodyServer) set(path string, b servedBody) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies[path] = b
}

func (s *bodyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b, ok := s.bodies[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", b.contentType)
	if !b.chunked {
		w.Header().Set("Content-Length", strconv.Itoa(len(b.body)))
	}
	if b.status != 0 {
		w.WriteHeader(b.status)
	}
	for rest := b.body; len(rest) > 0; {
		n := min(len(rest), 64<<10)
		_, _ = w.Write(rest[:n])
		rest = rest[n:]
		if b.chunked {
			w.(http.Flusher).Flush()
		}
	}
}

// reuseClient returns a client of srv decoding with this module's decoders.
func reuseClient(t *testing.T, srv *httptest.Server, contentType string) *RESTClient {
	t.Helper()
	config := coreV1Config(srv.URL)
	config.NegotiatedSerializer = testCodecs.WithoutConversion()
	config.AcceptContentTypes = contentType
	client, err := RESTClientFor(config)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// TestDecodeOnceReadsIntoAReusedBuffer checks which responses Do reads
// into a pooled buffer: only successful bodies of the request the
// context's decodeonce mark names (internal/responsebody decides which
// sizes), and that every body read is the one sent.
func TestDecodeOnceReadsIntoAReusedBuffer(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	// A page of a list: large enough for a pooled buffer (256 KiB), not
	// too large (8 MiB).
	page := encodeAs(t, runtime.ContentTypeProtobuf, wiretest.PodList(200, 0))
	if len(page) < 256<<10 || len(page) > 8<<20 {
		t.Fatalf("a page of %d bytes: not a page's size", len(page))
	}
	s := &bodyServer{bodies: map[string]servedBody{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := reuseClient(t, srv, runtime.ContentTypeProtobuf)

	const (
		markSelf = iota
		markNone
		markOther
	)
	for _, tc := range []struct {
		name   string
		served servedBody
		mark   int
		want   bool
	}{
		{"marked", servedBody{body: page}, markSelf, true},
		{"not marked", servedBody{body: page}, markNone, false},
		{"marked for another request", servedBody{body: page}, markOther, false},
		{"marked, failed response", servedBody{body: bytes.Repeat([]byte("x"), len(page)), contentType: "text/plain", status: http.StatusInternalServerError}, markSelf, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.served.contentType == "" {
				tc.served.contentType = runtime.ContentTypeProtobuf
			}
			s.set("/api/v1/pods", tc.served)
			r := client.Get().Resource("pods")
			ctx := context.Background()
			switch tc.mark {
			case markSelf:
				ctx = decodeonce.Mark(ctx, r)
			case markOther:
				ctx = decodeonce.Mark(ctx, client.Get())
			}
			res := r.Do(ctx)
			if got := res.reusable != nil; got != tc.want {
				t.Errorf("read into a reused buffer: %v, want %v", got, tc.want)
			}
			if tc.served.status != 0 {
				if res.Error() == nil {
					t.Error("failed response without an error")
				}
				return
			}
			if !bytes.Equal(res.body, tc.served.body) {
				t.Errorf("body of %d bytes, want the %d sent", len(res.body), len(tc.served.body))
			}
			var list corev1.PodList
			if err := res.Into(&list); err != nil || len(list.Items) != 200 {
				t.Errorf("Into: %d pods, %v; want 200", len(list.Items), err)
			}
		})
	}
}

// TestDecodeOnceKeepsTheBodyOfAnUnknown checks that a marked result decoded
// into a runtime.Unknown, whose Raw is the body itself, keeps its buffer:
// later marked requests do not overwrite it.
func TestDecodeOnceKeepsTheBodyOfAnUnknown(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	body := encodeAs(t, runtime.ContentTypeJSON, wiretest.PodList(200, 0))
	s := &bodyServer{bodies: map[string]servedBody{"/api/v1/pods": {body: body, contentType: runtime.ContentTypeJSON}}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := reuseClient(t, srv, runtime.ContentTypeJSON)
	r := client.Get().Resource("pods")
	res := r.Do(decodeonce.Mark(context.Background(), r))
	if res.reusable == nil {
		t.Fatal("body not read into a reused buffer")
	}
	var unknown runtime.Unknown
	if err := res.Into(&unknown); err != nil {
		t.Fatal(err)
	}
	// Were the buffer back in the pool, the next marked request would
	// take it and overwrite unknown.Raw.
	other := client.Get().Resource("pods")
	for range 4 {
		var list corev1.PodList
		s.set("/api/v1/pods", servedBody{body: encodeAs(t, runtime.ContentTypeJSON, wiretest.PodList(210, 0)), contentType: runtime.ContentTypeJSON})
		if err := other.Do(decodeonce.Mark(context.Background(), other)).Into(&list); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(unknown.Raw, body) {
		t.Error("the Raw of a decoded Unknown changed after later requests")
	}
}

// bytesAllocatedBy returns the bytes the process allocated while f ran.
// The rest package's tests do not run in parallel, so what it counts
// besides f is the test server's own work on the same request.
func bytesAllocatedBy(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
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
	w.Header().Set("Content-Type", runtime.ContentTypeJSON)
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
	one := len(encodeAs(t, runtime.ContentTypeJSON, wiretest.PodList(1, 0)))
	return encodeAs(t, runtime.ContentTypeJSON, wiretest.PodList(n/one+1, 0))
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
