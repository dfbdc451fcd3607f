package fake

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	restclient "github.com/kubeclient/client-go/rest"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() {
	utilruntime.Must(corev1.AddToScheme(scheme))
	metav1.AddToGroupVersion(scheme, corev1.SchemeGroupVersion)
}

func jsonResponse(code int, body string) *http.Response {
	return &http.Response{
		StatusCode: code,
		Header:     http.Header{"Content-Type": []string{"application/json"}},
		Body:       io.NopCloser(bytes.NewBufferString(body)),
	}
}

func newFake() *RESTClient {
	return &RESTClient{
		NegotiatedSerializer: codecs.WithoutConversion(),
		GroupVersion:         corev1.SchemeGroupVersion,
		VersionedAPIPath:     "/api/v1",
	}
}

func TestCannedResponse(t *testing.T) {
	c := newFake()
	c.Resp = jsonResponse(200, `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"canned"}}`)
	var pod corev1.Pod
	if err := c.Get().Namespace("ns").Resource("pods").Name("canned").Do(context.Background()).Into(&pod); err != nil {
		t.Fatal(err)
	}
	if pod.Name != "canned" {
		t.Errorf("pod = %q", pod.Name)
	}
	if c.Req == nil || c.Req.URL.String() != "https://localhost/api/v1/namespaces/ns/pods/canned" || c.Req.Method != "GET" {
		t.Errorf("recorded request %v", c.Req)
	}
}

func TestCannedError(t *testing.T) {
	c := newFake()
	c.Err = errors.New("network down")
	err := c.Post().Resource("pods").Body([]byte("{}")).Do(context.Background()).Error()
	if err == nil || !errors.Is(err, c.Err) {
		t.Errorf("err = %v", err)
	}
	if c.Req != nil {
		t.Error("request recorded although Err was set")
	}
}

func TestStatusResponse(t *testing.T) {
	c := newFake()
	c.Resp = jsonResponse(404, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"pods \"x\" not found"}`)
	err := c.Delete().Resource("pods").Name("x").Do(context.Background()).Error()
	if !apierrors.IsNotFound(err) {
		t.Errorf("err = %v", err)
	}
}

func TestClientIsUsed(t *testing.T) {
	var gotPatchType string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPatchType = r.Header.Get("Content-Type")
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"patched"}}`)
	}))
	defer srv.Close()
	c := newFake()
	c.Client = CreateHTTPClient(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host, r.RequestURI = "http", srv.Listener.Addr().String(), ""
		return http.DefaultTransport.RoundTrip(r)
	})
	var pod corev1.Pod
	if err := c.Patch(types.MergePatchType).Resource("pods").Name("p").Body([]byte(`{}`)).Do(context.Background()).Into(&pod); err != nil {
		t.Fatal(err)
	}
	if pod.Name != "patched" || gotPatchType != string(types.MergePatchType) {
		t.Errorf("pod %q content type %q", pod.Name, gotPatchType)
	}
}

func TestClientMetadata(t *testing.T) {
	c := newFake()
	if c.APIVersion() != corev1.SchemeGroupVersion || c.GetRateLimiter() != nil {
		t.Error("metadata")
	}
	for verb, r := range map[string]*restclient.Request{"GET": c.Get(), "PUT": c.Put(), "POST": c.Post(), "DELETE": c.Delete(), "HEAD": c.Verb("HEAD")} {
		c.Resp = jsonResponse(200, `{}`)
		_, _ = r.DoRaw(context.Background())
		if c.Req.Method != verb {
			t.Errorf("method %q, want %q", c.Req.Method, verb)
		}
	}
	var _ restclient.Interface = c
}

func TestCreateHTTPClient(t *testing.T) {
	called := false
	client := CreateHTTPClient(func(r *http.Request) (*http.Response, error) {
		called = true
		return &http.Response{StatusCode: 204, Body: http.NoBody}, nil
	})
	resp, err := client.Get("http://unused.invalid/")
	if err != nil || resp.StatusCode != 204 || !called {
		t.Errorf("resp %v err %v called %v", resp, err, called)
	}
}
