package transport

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// recordingRoundTripper remembers the last request and answers with status
// (200 when zero) and a small metav1.Status body.
type recordingRoundTripper struct {
	mu       sync.Mutex
	requests []*http.Request
	status   int
	err      error
}

func (r *recordingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, req)
	if r.err != nil {
		return nil, r.err
	}
	code := r.status
	if code == 0 {
		code = http.StatusOK
	}
	return &http.Response{
		StatusCode: code,
		Status:     http.StatusText(code),
		Header:     http.Header{"Content-Type": {"application/json"}, "Audit-Id": {"4f5c5c5e"}},
		Body:       io.NopCloser(strings.NewReader(`{"kind":"Status","apiVersion":"v1","status":"Success"}`)),
		Request:    req,
	}, nil
}

func (r *recordingRoundTripper) last(t *testing.T) *http.Request {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) == 0 {
		t.Fatal("no request reached the base round tripper")
	}
	return r.requests[len(r.requests)-1]
}

// innermostHTTPTransport walks the wrapper chain of rt down to the
// *http.Transport that owns the connections.
func innermostHTTPTransport(t *testing.T, rt http.RoundTripper) *http.Transport {
	t.Helper()
	for {
		switch v := rt.(type) {
		case *http.Transport:
			return v
		case utilnet.RoundTripperWrapper:
			rt = v.WrappedRoundTripper()
		default:
			t.Fatalf("cannot unwrap %T", rt)
		}
	}
}

func newPlainServer(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func mustParseURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newGet(t *testing.T, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func removeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}
