package rest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/apifill"
	"github.com/kubeclient/client-go/internal/decodeonce"
	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
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

// podList returns a list of n realistic pods (managed fields, status) and
// extra pods with every field filled at random.
func podList(n, random int) *corev1.PodList {
	list := &corev1.PodList{}
	for i := range n {
		list.Items = append(list.Items, *wiretest.Pod(fmt.Sprintf("web-%d", i)))
	}
	f := apifill.NewFiller(int64(random))
	for range random {
		var pod corev1.Pod
		f.Fill(&pod)
		list.Items = append(list.Items, pod)
	}
	return list
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

// reuseTestRuns counts the runs of TestDecodeOnceReadsIntoAReusedBuffer.
var reuseTestRuns atomic.Int32

// TestDecodeOnceReadsIntoAReusedBuffer checks which responses are read into
// a pooled buffer: only presized, successful bodies of the request the
// context marks, of a page's size; and that every body read is the one
// sent.
func TestDecodeOnceReadsIntoAReusedBuffer(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	large := encodeAs(t, runtime.ContentTypeProtobuf, podList(200, 0))
	small := encodeAs(t, runtime.ContentTypeProtobuf, podList(1, 0))
	// Only bodies of a megabyte or more leave a size hint.
	hinted := encodeAs(t, runtime.ContentTypeProtobuf, podList(1000, 0))
	larger := encodeAs(t, runtime.ContentTypeProtobuf, podList(1500, 0))
	huge := encodeAs(t, runtime.ContentTypeProtobuf, &corev1.ConfigMap{BinaryData: map[string][]byte{"blob": make([]byte, maxReusedBody+1)}})
	if len(large) < minReusedBody || len(hinted) < minHintedBody {
		t.Fatalf("lists of %d and %d bytes: too small", len(large), len(hinted))
	}
	s := &bodyServer{bodies: map[string]servedBody{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := reuseClient(t, srv, runtime.ContentTypeProtobuf)

	// Size hints are process-wide: each run of the test (-count) reads
	// from paths of its own.
	run := strconv.Itoa(int(reuseTestRuns.Add(1)))
	const (
		markSelf = iota
		markNone
		markOther
	)
	for _, tc := range []struct {
		name   string
		ns     string // the path; rows sharing one see each other's size hints
		served servedBody
		mark   int
		want   bool
	}{
		{"marked, declared length", "declared", servedBody{body: large}, markSelf, true},
		{"not marked", "declared", servedBody{body: large}, markNone, false},
		{"marked for another request", "declared", servedBody{body: large}, markOther, false},
		{"marked, small body", "small", servedBody{body: small}, markSelf, false},
		{"marked, body larger than a page", "huge", servedBody{body: huge}, markSelf, false},
		{"marked, failed response", "failed", servedBody{body: bytes.Repeat([]byte("x"), len(large)), contentType: "text/plain", status: http.StatusInternalServerError}, markSelf, false},
		{"marked, unknown length, no hint yet", "chunked", servedBody{body: hinted, chunked: true}, markSelf, false},
		{"marked, unknown length, hinted by the last body", "chunked", servedBody{body: hinted, chunked: true}, markSelf, true},
		{"marked, unknown length, past the hint", "chunked", servedBody{body: larger, chunked: true}, markSelf, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.served.contentType == "" {
				tc.served.contentType = runtime.ContentTypeProtobuf
			}
			ns := tc.ns + "-" + run
			s.set("/api/v1/namespaces/"+ns+"/pods", tc.served)
			r := client.Get().Namespace(ns).Resource("pods")
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
			if res.reusable != nil && cap(res.body) != len(res.body) {
				t.Errorf("body has capacity %d past its length %d", cap(res.body), len(res.body))
			}
		})
	}
}

// TestDecodeOnceObjectsOutliveTheBuffer decodes marked lists with each of
// this module's decoders, overwrites the buffer their body was read into,
// as the next response would, and checks the objects are those decoded
// from a private copy of the body: no decoder keeps a part of its input.
func TestDecodeOnceObjectsOutliveTheBuffer(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	list := podList(150, 30)
	share := intern.NewDecodeSharing(intern.NewBytes(64, 16<<10))
	for _, mediaType := range []string{runtime.ContentTypeProtobuf, runtime.ContentTypeJSON} {
		for _, forCache := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, for a cache: %v", mediaType, forCache), func(t *testing.T) {
				s := &bodyServer{bodies: map[string]servedBody{}}
				s.set("/api/v1/pods", servedBody{body: encodeAs(t, mediaType, list), contentType: mediaType})
				srv := httptest.NewServer(s)
				defer srv.Close()
				client := reuseClient(t, srv, mediaType)
				ctx := context.Background()
				if forCache {
					ctx = wirecodec.WithCacheDecoding(ctx, share)
				}
				r := client.Get().Resource("pods")
				res := r.Do(decodeonce.Mark(ctx, r))
				if res.reusable == nil {
					t.Fatalf("body of %d bytes not read into a reused buffer", len(res.body))
				}
				private := bytes.Clone(res.body)
				var got corev1.PodList
				if err := res.Into(&got); err != nil {
					t.Fatal(err)
				}
				buf := res.reusable.buf[:cap(res.reusable.buf)]
				for i := range buf {
					buf[i] = 0xA5
				}
				var want corev1.PodList
				if _, _, err := res.decoder.Decode(private, nil, &want); err != nil {
					t.Fatal(err)
				}
				if len(got.Items) != len(list.Items) || !reflect.DeepEqual(&got, &want) {
					t.Error("objects decoded from a reused buffer changed when it was overwritten")
				}
			})
		}
	}
}

// TestDecodeOnceKeepsTheBodyOfAnUnknown checks that a marked result decoded
// into a runtime.Unknown, whose Raw is the body itself, keeps its buffer.
func TestDecodeOnceKeepsTheBodyOfAnUnknown(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	body := encodeAs(t, runtime.ContentTypeJSON, podList(200, 0))
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
		s.set("/api/v1/pods", servedBody{body: encodeAs(t, runtime.ContentTypeJSON, podList(210, 0)), contentType: runtime.ContentTypeJSON})
		if err := other.Do(decodeonce.Mark(context.Background(), other)).Into(&list); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(unknown.Raw, body) {
		t.Error("the Raw of a decoded Unknown changed after later requests")
	}
}
