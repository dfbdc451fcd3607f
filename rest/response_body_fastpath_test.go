package rest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/decodeonce"
	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestBodyPoolSwitch reads the bodies that the fast path pools or
// remembers the size of, with the fastpath.BodyPool switch on and off:
// off, no body is read into a pooled buffer and no size hint is noted,
// used or forgotten; the bodies read are the same.
func TestBodyPoolSwitch(t *testing.T) {
	page := encodeAs(t, runtime.ContentTypeProtobuf, podList(200, 0))
	large := encodeAs(t, runtime.ContentTypeProtobuf, podList(1000, 0))
	small := encodeAs(t, runtime.ContentTypeProtobuf, podList(1, 0))
	if len(page) < minReusedBody || len(large) < minHintedBody {
		t.Fatalf("lists of %d and %d bytes: too small", len(page), len(large))
	}
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprintf("on=%v", on), func(t *testing.T) {
			defer fastpath.BodyPool.Set(on)()
			s := &bodyServer{bodies: map[string]servedBody{}}
			srv := httptest.NewServer(s)
			defer srv.Close()
			client := reuseClient(t, srv, runtime.ContentTypeProtobuf)
			ns := fmt.Sprintf("switch-%v", on)
			path := "/api/v1/namespaces/" + ns + "/pods"
			do := func(served servedBody) Result {
				t.Helper()
				served.contentType = runtime.ContentTypeProtobuf
				s.set(path, served)
				r := client.Get().Namespace(ns).Resource("pods")
				res := r.Do(decodeonce.Mark(context.Background(), r))
				if res.err != nil || !bytes.Equal(res.body, served.body) {
					t.Fatalf("read %d bytes, %v; want the %d sent", len(res.body), res.err, len(served.body))
				}
				return res
			}
			hinted := func() bool {
				return bodySizeHint(requestFor(t, srv.URL+path)) > 0
			}

			if res := do(servedBody{body: page}); (res.reusable != nil) != on {
				t.Errorf("a marked page read into a pooled buffer: %v", res.reusable != nil)
			}
			do(servedBody{body: large, chunked: true})
			if hinted() != on {
				t.Errorf("a large body of unknown length left a hint: %v", hinted())
			}
			// A hint left while the switch was on stays when it is off.
			noteBodySize(requestFor(t, srv.URL+path), len(large))
			defer noteBodySize(requestFor(t, srv.URL+path), 0)
			do(servedBody{body: small, chunked: true})
			if hinted() == on {
				t.Errorf("a small body of unknown length forgot the hint: %v", !hinted())
			}
		})
	}
}

// requestFor returns a GET request of rawURL.
func requestFor(t *testing.T, rawURL string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
