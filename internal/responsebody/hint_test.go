package responsebody

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestBodySizeHints: the size of a large body of unknown length becomes
// the hint for the next response to the same method and path, and only
// for it; a small body forgets the hint.
func TestBodySizeHints(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	get := func(path string) *http.Request {
		return &http.Request{Method: http.MethodGet, URL: &url.URL{Path: path}}
	}
	read := func(req *http.Request, n int, length int64) {
		t.Helper()
		body := bytes.Repeat([]byte{'x'}, n)
		got, _, err := Read(req, &http.Response{Body: io.NopCloser(bytes.NewReader(body)), ContentLength: length}, false)
		if err != nil || len(got) != n {
			t.Fatalf("read %d bytes, %v; want %d", len(got), err, n)
		}
	}
	pods, nodes := "/api/v1/pods", "/api/v1/nodes"
	if h := bodySizeHint(get(pods)); h != 0 {
		t.Fatalf("hint before any read: %d", h)
	}
	read(get(pods), 2*minHintedBody, -1)
	if h, want := bodySizeHint(get(pods)), 2*minHintedBody+2*minHintedBody/16; h != want {
		t.Errorf("hint after a large body: %d, want %d", h, want)
	}
	for _, other := range []*http.Request{get(nodes), {Method: http.MethodPost, URL: &url.URL{Path: pods}}} {
		if h := bodySizeHint(other); h != 0 {
			t.Errorf("hint for %s %s: %d, want none", other.Method, other.URL.Path, h)
		}
	}
	read(get(pods), 3*minHintedBody, int64(3*minHintedBody))
	if h, want := bodySizeHint(get(pods)), 2*minHintedBody+2*minHintedBody/16; h != want {
		t.Errorf("a body of declared length changed the hint: %d, want %d", h, want)
	}
	read(get(pods), 100, -1)
	if h := bodySizeHint(get(pods)); h != 0 {
		t.Errorf("hint after a small body: %d, want none", h)
	}
}

// TestBodySizeHintKeys: a hint applies to the same method, path and query,
// whatever the page (continue) or resourceVersion asked for.
func TestBodySizeHintKeys(t *testing.T) {
	req := func(method, uri string) *http.Request {
		u, err := url.ParseRequestURI(uri)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Request{Method: method, URL: u}
	}
	noted := req(http.MethodGet, "/api/v1/namespaces/hints/pods?limit=500&resourceVersion=7&continue=abc")
	noteBodySize(noted, 2*minHintedBody)
	defer noteBodySize(noted, 0)
	for _, tc := range []struct {
		method, uri string
		want        bool
	}{
		{http.MethodGet, "/api/v1/namespaces/hints/pods?limit=500&resourceVersion=7&continue=abc", true},
		{http.MethodGet, "/api/v1/namespaces/hints/pods?continue=def&limit=500", true},
		{http.MethodGet, "/api/v1/namespaces/hints/pods?limit=500&resourceVersion=9", true},
		{http.MethodGet, "/api/v1/namespaces/hints/pods?limit=500&labelSelector=app%3Dx", false},
		{http.MethodGet, "/api/v1/namespaces/hints/pods?limit=100", false},
		{http.MethodGet, "/api/v1/namespaces/hints/pods", false},
		{http.MethodPost, "/api/v1/namespaces/hints/pods?limit=500", false},
		{http.MethodGet, "/api/v1/namespaces/other/pods?limit=500", false},
	} {
		if got := bodySizeHint(req(tc.method, tc.uri)) > 0; got != tc.want {
			t.Errorf("%s %s: hinted %v, want %v", tc.method, tc.uri, got, tc.want)
		}
	}
}
