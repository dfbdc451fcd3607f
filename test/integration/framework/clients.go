package framework

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/rest"
)

// Content types the tests run with.
const (
	ContentTypeJSON     = "application/json"
	ContentTypeProtobuf = "application/vnd.kubernetes.protobuf"
)

// ContentTypes lists the wire formats every rest test covers.
var ContentTypes = []string{ContentTypeJSON, ContentTypeProtobuf}

// WireLog records the Content-Type of every request body sent and every
// response received through a configuration it was attached to.
type WireLog struct {
	mu       sync.Mutex // guards the slices
	sent     []string
	received []string
}

// Attach wraps cfg's transport so that w records its traffic.
func (w *WireLog) Attach(cfg *rest.Config) {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			w.mu.Lock()
			defer w.mu.Unlock()
			if req.Body != nil && req.Method != http.MethodPatch { // patches carry their patch type
				w.sent = append(w.sent, req.Header.Get("Content-Type"))
			}
			if resp != nil {
				w.received = append(w.received, resp.Header.Get("Content-Type"))
			}
			return resp, err
		})
	})
}

// Check fails t unless every recorded content type starts with want.
func (w *WireLog) Check(t testing.TB, want string) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.received) == 0 {
		t.Errorf("no responses recorded")
	}
	for _, got := range w.sent {
		if !strings.HasPrefix(got, want) {
			t.Errorf("a request was sent as %q, want %q", got, want)
		}
	}
	for _, got := range w.received {
		if !strings.HasPrefix(got, want) {
			t.Errorf("a response came back as %q, want %q", got, want)
		}
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// RESTClientFor returns a rest.RESTClient for group version gv (the core
// group when gv.Group is empty) that speaks contentType.
func RESTClientFor(t testing.TB, cfg *rest.Config, gv schema.GroupVersion, contentType string) *rest.RESTClient {
	t.Helper()
	cfg = rest.CopyConfig(cfg)
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	cfg.ContentType = contentType
	cfg.AcceptContentTypes = contentType
	client, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatalf("RESTClientFor(%v): %v", gv, err)
	}
	return client
}
