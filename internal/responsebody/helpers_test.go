package responsebody

// Helpers shared by this package's test files: the test scheme and
// codecs, the decoder the REST client negotiates, requests and
// responses.

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/kubeclient/client-go/internal/wirecodec"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// testScheme holds core/v1 and the meta types.
var testScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(corev1.AddToScheme(s))
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return s
}()

var testCodecs = serializer.NewCodecFactory(testScheme)

// encodeAs encodes obj in mediaType with the test codecs.
func encodeAs(t *testing.T, mediaType string, obj runtime.Object) []byte {
	t.Helper()
	return wiretest.Encode(t, testCodecs, mediaType, obj)
}

// moduleDecoder returns the decoder the REST client negotiates for
// mediaType: this module's, in front of the test codecs'.
func moduleDecoder(t *testing.T, mediaType string) runtime.Decoder {
	t.Helper()
	negotiator := runtime.NewClientNegotiator(wirecodec.NewNegotiatedSerializer(testCodecs.WithoutConversion()), corev1.SchemeGroupVersion)
	d, err := negotiator.Decoder(mediaType, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// getRequest returns a GET request of path.
func getRequest(path string) *http.Request {
	return &http.Request{Method: http.MethodGet, URL: &url.URL{Path: path}}
}

// response returns a response with body, of declared length unless
// chunked.
func response(body []byte, chunked bool) *http.Response {
	length := int64(len(body))
	if chunked {
		length = -1
	}
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: length}
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
