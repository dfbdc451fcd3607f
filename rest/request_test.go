package rest

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

func TestRequestURL(t *testing.T) {
	c := offlineClient(t, "https://example.com:6443")
	proxied := offlineClient(t, "https://example.com/proxy/")
	tests := []struct {
		name string
		req  *Request
		want string
	}{
		{"collection", c.Get().Resource("pods"), "https://example.com:6443/api/v1/pods"},
		{"namespaced", c.Get().Namespace("kube-system").Resource("Pods"), "https://example.com:6443/api/v1/namespaces/kube-system/pods"},
		{"named", c.Get().Namespace("ns").Resource("pods").Name("web"), "https://example.com:6443/api/v1/namespaces/ns/pods/web"},
		{"subresource", c.Put().Namespace("ns").Resource("pods").Name("web").SubResource("status"), "https://example.com:6443/api/v1/namespaces/ns/pods/web/status"},
		{"multi-segment subresource", c.Get().Resource("nodes").Name("n1").SubResource("proxy", "metrics"), "https://example.com:6443/api/v1/nodes/n1/proxy/metrics"},
		{"suffix", c.Get().Resource("nodes").Name("n1").SubResource("proxy").Suffix("stats", "summary"), "https://example.com:6443/api/v1/nodes/n1/proxy/stats/summary"},
		{"empty namespace is cluster scope", c.Get().Namespace("").Resource("pods"), "https://example.com:6443/api/v1/pods"},
		{"not scoped", c.Get().NamespaceIfScoped("ns", false).Resource("nodes"), "https://example.com:6443/api/v1/nodes"},
		{"scoped", c.Get().NamespaceIfScoped("ns", true).Resource("pods"), "https://example.com:6443/api/v1/namespaces/ns/pods"},
		{"prefix", c.Get().Prefix("watch").Resource("pods"), "https://example.com:6443/api/v1/watch/pods"},
		{"abs path", c.Get().AbsPath("/healthz"), "https://example.com:6443/healthz"},
		{"abs path trailing slash", c.Get().AbsPath("/apis/"), "https://example.com:6443/apis/"},
		{"abs path segments", c.Get().AbsPath("/apis", "apps", "v1"), "https://example.com:6443/apis/apps/v1"},
		{"abs path keeps base path", proxied.Get().AbsPath("/version"), "https://example.com/proxy/version"},
		{"empty abs path under base path", proxied.Get().AbsPath(""), "https://example.com/proxy"},
		{"root abs path under base path", proxied.Get().AbsPath("/"), "https://example.com/proxy/"},
		{"base path prefix", proxied.Get().Resource("pods"), "https://example.com/proxy/api/v1/pods"},
		{"params", c.Get().Resource("pods").Param("labelSelector", "app=web").Param("limit", "5"), "https://example.com:6443/api/v1/pods?labelSelector=app%3Dweb&limit=5"},
		{"repeated param", c.Get().Resource("pods").Param("a", "1").Param("a", "2"), "https://example.com:6443/api/v1/pods?a=1&a=2"},
		{"timeout param", c.Get().Resource("pods").Timeout(90 * time.Second), "https://example.com:6443/api/v1/pods?timeout=1m30s"},
		{"request URI", c.Get().Param("x", "y").RequestURI("/api/v1/namespaces/a/pods?watch=true"), "https://example.com:6443/api/v1/namespaces/a/pods?watch=true"},
		{"request URI clears params", c.Get().Param("x", "y").RequestURI("/version"), "https://example.com:6443/version"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.req.Error(); err != nil {
				t.Fatalf("build error: %v", err)
			}
			if got := tc.req.URL().String(); got != tc.want {
				t.Errorf("URL = %s\nwant  %s", got, tc.want)
			}
		})
	}
}

func TestRequestBuildErrorsAccumulate(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	tests := []struct {
		name string
		req  *Request
		want string
	}{
		{"empty name", c.Get().Resource("pods").Name(""), "resource name may not be empty"},
		{"name twice", c.Get().Resource("pods").Name("a").Name("b"), `resource name already set to "a", cannot change to "b"`},
		{"bad name", c.Get().Resource("pods").Name("a/b"), `invalid resource name "a/b"`},
		{"dot name", c.Get().Resource("pods").Name(".."), `may not be '..'`},
		{"resource twice", c.Get().Resource("pods").Resource("nodes"), `resource already set to "pods"`},
		{"bad resource", c.Get().Resource("po%ds"), `invalid resource "po%ds"`},
		{"namespace twice", c.Get().Namespace("a").Namespace("b"), `namespace already set to "a", cannot change to "b"`},
		{"bad namespace", c.Get().Namespace("a/b"), `invalid namespace "a/b"`},
		{"subresource twice", c.Get().SubResource("a").SubResource("b"), `subresource already set to "a"`},
		{"bad subresource", c.Get().SubResource("a/b"), `invalid subresource "a/b"`},
		{"bad body type", c.Post().Body(42), "unknown type used for body: 42"},
		{"nil body", c.Post().Body(nil), "unknown type used for body"},
		{"missing body file", c.Post().Body(filepath.Join(t.TempDir(), "absent.json")), "absent.json"},
		{"bad request URI", c.Get().RequestURI("%zz"), "invalid URL escape"},
		// The first error wins; later valid calls do not clear it.
		{"first error kept", c.Get().Name("").Resource("pods").Name("ok").Namespace("x/y"), "resource name may not be empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.req.Error()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Error() = %v, want %q", err, tc.want)
			}
			// The error surfaces when the request executes, without any
			// network traffic (example.com is never dialled: nothing is sent).
			ctx := context.Background()
			if res := tc.req.Do(ctx); res.Error() != err {
				t.Errorf("Do error = %v", res.Error())
			}
			if _, derr := tc.req.DoRaw(ctx); derr != err {
				t.Errorf("DoRaw error = %v", derr)
			}
			if _, serr := tc.req.Stream(ctx); serr != err {
				t.Errorf("Stream error = %v", serr)
			}
			if _, werr := tc.req.Watch(ctx); werr != err {
				t.Errorf("Watch error = %v", werr)
			}
		})
	}
}

func TestEmptyNamespacePreflight(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	for _, tc := range []struct {
		req  *Request
		want string
	}{
		{c.Post().Namespace("").Resource("pods"), "an empty namespace may not be set during creation"},
		{c.Get().Namespace("").Resource("pods").Name("x"), "an empty namespace may not be set when a resource name is provided"},
		{c.Delete().Namespace("").Resource("pods").Name("x"), "an empty namespace may not be set when a resource name is provided"},
	} {
		err := tc.req.Do(context.Background()).Error()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %s: err = %v, want %q", tc.req.verb, tc.req.URL(), err, tc.want)
		}
	}
}

func TestRequestBodyVariants(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	file := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(file, []byte(`{"from":"file"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	r := c.Post().Body(file)
	if string(r.bodyBytes) != `{"from":"file"}` || r.body != nil {
		t.Errorf("file body: %q", r.bodyBytes)
	}
	r = c.Post().Body([]byte("raw"))
	if string(r.bodyBytes) != "raw" || r.headers.Get("Content-Type") != "" {
		t.Errorf("bytes body: %q %v", r.bodyBytes, r.headers)
	}
	reader := strings.NewReader("stream")
	r = c.Post().Body(reader)
	if r.body != reader || r.bodyBytes != nil {
		t.Errorf("reader body not kept as a stream")
	}
	r = c.Post().Body(testPod("p"))
	if !strings.Contains(string(r.bodyBytes), `"kind":"Pod"`) || r.headers.Get("Content-Type") != "application/json" {
		t.Errorf("object body: %s %v", r.bodyBytes, r.headers)
	}
	var nilPod *corev1.Pod
	r = c.Post().Body(nilPod)
	if r.Error() != nil || r.body != nil || r.bodyBytes != nil {
		t.Errorf("typed nil object should leave the body unset: %v", r.Error())
	}
	// A later Body replaces an earlier one of another kind.
	r = c.Post().Body(strings.NewReader("x")).Body([]byte("y"))
	if r.body != nil || string(r.bodyBytes) != "y" {
		t.Errorf("body not replaced")
	}
}

func TestRequestBodyProtobuf(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	r := c.Post().UseProtobufAsDefault().Body(testPod("p"))
	if r.Error() != nil {
		t.Fatal(r.Error())
	}
	if got := r.headers.Get("Content-Type"); got != "application/vnd.kubernetes.protobuf" {
		t.Errorf("Content-Type = %q", got)
	}
	if got := r.headers.Get("Accept"); got != "application/vnd.kubernetes.protobuf,application/json" {
		t.Errorf("Accept = %q", got)
	}
	if len(r.bodyBytes) < 4 || string(r.bodyBytes[:4]) != "k8s\x00" {
		t.Errorf("body is not a Kubernetes protobuf envelope: %q", r.bodyBytes)
	}
}

func TestUseProtobufAsDefaultRespectsConfiguredContentType(t *testing.T) {
	cfg := coreV1Config("http://example.com")
	cfg.ContentType = "application/json"
	c, err := RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Get().UseProtobufAsDefaultIfPreferred(true)
	if got := r.headers.Get("Accept"); got != "application/json, */*" {
		t.Errorf("configured JSON was overridden: Accept = %q", got)
	}
	r = offlineClient(t, "http://example.com").Get().UseProtobufAsDefaultIfPreferred(false)
	if got := r.headers.Get("Accept"); got != "application/json, */*" {
		t.Errorf("Accept = %q", got)
	}
}

func TestVersionedParams(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	r := c.Get().Resource("pods").Param("limit", "1").VersionedParams(&metav1.ListOptions{
		LabelSelector:   "app=web",
		ResourceVersion: "0",
		Limit:           500,
		Watch:           true,
	}, testParams)
	if r.Error() != nil {
		t.Fatal(r.Error())
	}
	q := r.URL().Query()
	if q.Get("labelSelector") != "app=web" || q.Get("resourceVersion") != "0" || q.Get("watch") != "true" {
		t.Errorf("query = %v", q)
	}
	if got := q["limit"]; len(got) != 2 || got[0] != "1" || got[1] != "500" {
		t.Errorf("params should add up: limit = %v", got)
	}
	if _, ok := q["fieldSelector"]; ok {
		t.Errorf("empty omitempty field was sent: %v", q)
	}

	r = c.Get().SpecificallyVersionedParams(&metav1.GetOptions{ResourceVersion: "9"}, testParams, corev1.SchemeGroupVersion)
	if r.Error() != nil || r.URL().Query().Get("resourceVersion") != "9" {
		t.Errorf("SpecificallyVersionedParams: %v %v", r.Error(), r.URL())
	}

	// An object of a kind the scheme does not know is a build error.
	r = c.Get().VersionedParams(&metav1.PartialObjectMetadataList{}, testParams)
	if r.Error() == nil {
		t.Error("encoding an unregistered type as query parameters should fail")
	}
}

func TestSetHeaderReplaces(t *testing.T) {
	r := offlineClient(t, "http://example.com").Get()
	r.SetHeader("X-A", "1", "2").SetHeader("X-A", "3")
	if got := r.headers.Values("X-A"); len(got) != 1 || got[0] != "3" {
		t.Errorf("X-A = %v", got)
	}
	if got := r.headers.Get("Accept"); got != "application/json, */*" {
		t.Errorf("default Accept = %q", got)
	}
}

func TestClientVerbs(t *testing.T) {
	c := offlineClient(t, "http://example.com")
	for verb, r := range map[string]*Request{
		"GET": c.Get(), "POST": c.Post(), "PUT": c.Put(), "DELETE": c.Delete(),
		"PATCH": c.Patch(types.StrategicMergePatchType), "OPTIONS": c.Verb("OPTIONS"),
	} {
		if r.verb != verb {
			t.Errorf("verb = %q, want %q", r.verb, verb)
		}
	}
	if got := c.Patch(types.MergePatchType).headers.Get("Content-Type"); got != string(types.MergePatchType) {
		t.Errorf("patch Content-Type = %q", got)
	}
	if c.APIVersion() != corev1.SchemeGroupVersion {
		t.Errorf("APIVersion = %v", c.APIVersion())
	}
	var _ Interface = c
}

func TestNewRESTClientNormalisesBase(t *testing.T) {
	base, _ := url.Parse("http://example.com/prefix?q=1#frag")
	c, err := NewRESTClient(base, "/api/v1", ClientContentConfig{GroupVersion: corev1.SchemeGroupVersion, Negotiator: runtime.NewClientNegotiator(testCodecs.WithoutConversion(), corev1.SchemeGroupVersion)}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Get().Resource("pods").URL().String(); got != "http://example.com/prefix/api/v1/pods" {
		t.Errorf("URL = %s", got)
	}
	if base.Path != "/prefix" || base.RawQuery != "q=1" {
		t.Errorf("caller's URL modified: %s", base)
	}
}

func TestRequestConstructionError(t *testing.T) {
	err := &RequestConstructionError{Err: errors.New("boom")}
	if !strings.Contains(err.Error(), "boom") {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestMetricURLTemplate(t *testing.T) {
	c := offlineClient(t, "https://example.com")
	tests := []struct {
		req  *Request
		want string
	}{
		{c.Get().Resource("pods"), "/api/v1/pods"},
		{c.Get().Namespace("ns").Resource("pods"), "/api/v1/namespaces/{namespace}/pods"},
		{c.Get().Namespace("ns").Resource("pods").Name("web"), "/api/v1/namespaces/{namespace}/pods/{name}"},
		{c.Get().Resource("nodes").Name("n1"), "/api/v1/nodes/{name}"},
		{c.Put().Resource("namespaces").Name("n1").SubResource("finalize"), "/api/v1/namespaces/{name}/finalize"},
		{c.Put().Namespace("ns").Resource("pods").Name("web").SubResource("status"), "/api/v1/namespaces/{namespace}/pods/{name}/status"},
		{c.Get().AbsPath("/apis/apps/v1/namespaces/ns/deployments/d"), "/apis/apps/v1/namespaces/{namespace}/deployments/{name}"},
		{c.Get().AbsPath("/healthz/etcd"), "/{prefix}"},
	}
	for _, tc := range tests {
		got := tc.req.metricURLTemplate()
		if got.Path != tc.want {
			t.Errorf("%s: template %s, want %s", tc.req.URL(), got.Path, tc.want)
		}
	}
	tmpl := c.Get().Resource("pods").Param("labelSelector", "a=b").metricURLTemplate()
	if tmpl.Query().Get("labelSelector") != "{value}" {
		t.Errorf("query values not replaced: %s", tmpl.String())
	}
}

func TestZeroValueClientUsesJSON(t *testing.T) {
	r := NewRequest(&RESTClient{})
	if got := r.headers.Get("Accept"); got != "application/json, */*" {
		t.Errorf("Accept = %q", got)
	}
	if got := r.URL().String(); got != "/" {
		t.Errorf("URL = %q", got)
	}
}
