package rest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/cbor"

	"github.com/kubeclient/client-go/features"
	featuretesting "github.com/kubeclient/client-go/features/testing"
)

// cborCodecs can encode and decode CBOR as well as JSON and protobuf.
var cborCodecs = serializer.NewCodecFactory(testScheme, serializer.WithSerializer(cbor.NewSerializerInfo))

type seenRequest struct{ contentType, accept string }

// cborServer records the headers of each request and answers with a Pod in
// CBOR, or with 415 while reject415 is set.
type cborServer struct {
	*httptest.Server
	mu        sync.Mutex
	seen      []seenRequest
	reject415 bool
}

func newCBORServer(t *testing.T) *cborServer {
	s := &cborServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{r.Header.Get("Content-Type"), r.Header.Get("Accept")})
		reject := s.reject415
		s.mu.Unlock()
		if reject && strings.HasPrefix(r.Header.Get("Content-Type"), "application/cbor") {
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		info, _ := runtime.SerializerInfoForMediaType(cborCodecs.SupportedMediaTypes(), runtime.ContentTypeCBOR)
		data, err := runtime.Encode(cborCodecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), testPod("from-cbor"))
		if err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", runtime.ContentTypeCBOR)
		_, _ = w.Write(data)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *cborServer) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

func cborClient(t *testing.T, srv *cborServer, contentType, accept string) *RESTClient {
	cfg := coreV1Config(srv.URL)
	cfg.ContentType, cfg.AcceptContentTypes = contentType, accept
	cfg.NegotiatedSerializer = CodecFactoryForGeneratedClient(testScheme, testCodecs).WithoutConversion()
	c, err := RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCBORDisabledFallsBackToJSON(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCBOR, false)
	srv := newCBORServer(t)
	c := cborClient(t, srv, "application/cbor", "application/cbor;q=0.9,application/yaml")
	_ = c.Post().Resource("pods").Body(testPod("p")).Do(context.Background())
	got := srv.requests()
	if len(got) != 1 || got[0].contentType != "application/json" || got[0].accept != "application/json; q=0.9,application/yaml" {
		t.Errorf("requests = %+v", got)
	}
	if CodecFactoryForGeneratedClient(testScheme, testCodecs).SupportedMediaTypes()[0].MediaType != testCodecs.SupportedMediaTypes()[0].MediaType {
		t.Error("codecs replaced although CBOR is not allowed")
	}
}

func TestCBORPreferredAndRejected(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCBOR, true)
	featuretesting.SetFeatureDuringTest(t, features.ClientsPreferCBOR, true)
	srv := newCBORServer(t)
	c := cborClient(t, srv, "", "")

	var pod corev1.Pod
	if err := c.Post().Resource("pods").Body(testPod("p")).Do(context.Background()).Into(&pod); err != nil {
		t.Fatal(err)
	}
	if pod.Name != "from-cbor" {
		t.Errorf("decoded %q from a CBOR response", pod.Name)
	}
	if got := srv.requests(); got[0].contentType != "application/cbor" || got[0].accept != "application/cbor, */*" {
		t.Errorf("first request %+v, want CBOR", got[0])
	}

	// After a 415 to a CBOR request the client falls back to JSON for good.
	srv.mu.Lock()
	srv.reject415 = true
	srv.mu.Unlock()
	if err := c.Post().Resource("pods").Body(testPod("p")).Do(context.Background()).Error(); err == nil {
		t.Error("415 should be an error")
	}
	_ = c.Post().Resource("pods").Body(testPod("p")).Do(context.Background())
	got := srv.requests()
	if last := got[len(got)-1]; last.contentType != "application/json" {
		t.Errorf("request after 415: %+v, want JSON", last)
	}
}

func TestCBORSequenceStreamNegotiation(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCBOR, true)
	n := cborSequenceNegotiator{runtime.NewClientNegotiator(cborCodecs.WithoutConversion(), corev1.SchemeGroupVersion)}
	if _, _, _, err := n.StreamDecoder(runtime.ContentTypeCBORSequence, nil); err != nil {
		t.Errorf("cbor-seq stream: %v", err)
	}
	if _, _, _, err := n.StreamDecoder(runtime.ContentTypeCBOR, nil); err == nil {
		t.Error("plain CBOR accepted for a stream")
	}
	if _, _, _, err := n.StreamDecoder(runtime.ContentTypeJSON, nil); err != nil {
		t.Errorf("json stream: %v", err)
	}
}

func TestReplaceCBORInAccept(t *testing.T) {
	tests := map[string]string{
		"application/json":                         "application/json",
		"application/cbor":                         "application/json",
		"application/cbor;q=0.5, application/yaml": "application/json; q=0.5,application/yaml",
		"garbage;;":                                "garbage;;",
	}
	for in, want := range tests {
		if got := replaceCBORInAccept(in); got != want {
			t.Errorf("replaceCBORInAccept(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNilNegotiatorIsAnErrorNotAPanic(t *testing.T) {
	for _, allowCBOR := range []bool{false, true} {
		t.Run(fmt.Sprint("cbor=", allowCBOR), func(t *testing.T) {
			featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCBOR, allowCBOR)
			base, _ := url.Parse("http://example.com")
			c, err := NewRESTClient(base, "/api/v1", ClientContentConfig{GroupVersion: corev1.SchemeGroupVersion}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Post().Body(testPod("p")).Error(); err == nil || !strings.Contains(err.Error(), "no negotiator") {
				t.Errorf("err = %v", err)
			}
		})
	}
}
