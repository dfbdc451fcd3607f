package gentype_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/gentype"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/rest"
)

type call struct {
	method, path, query, accept, contentType, body string
}

// server records requests and answers with a ConfigMap, a ConfigMapList or
// a Status depending on the request, in JSON.
type server struct {
	t   *testing.T
	mu  sync.Mutex // guards log
	log []call
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.log = append(s.log, call{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept"), r.Header.Get("Content-Type"), string(body)})
	s.mu.Unlock()
	var obj runtime.Object = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "ns"}}
	switch {
	case r.Method == http.MethodDelete:
		obj = &metav1.Status{Status: metav1.StatusSuccess}
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "configmaps"):
		obj = &corev1.ConfigMapList{Items: []corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, {ObjectMeta: metav1.ObjectMeta{Name: "b"}}}}
	}
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), "application/json")
	w.Header().Set("Content-Type", "application/json")
	if err := scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion).Encode(obj, w); err != nil {
		s.t.Errorf("encode: %v", err)
	}
}

func (s *server) last() call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log[len(s.log)-1]
}

func restClient(t *testing.T, contentType string) (rest.Interface, *server) {
	s := &server{t: t}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	cfg := &rest.Config{Host: ts.URL, APIPath: "/api"}
	cfg.GroupVersion = &corev1.SchemeGroupVersion
	cfg.ContentType = contentType
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	c, err := rest.RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

type configMaps = gentype.ClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *applycorev1.ConfigMapApplyConfiguration]

func newConfigMaps(c rest.Interface, namespace string, opts ...gentype.Option[*corev1.ConfigMap]) *configMaps {
	return gentype.NewClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *applycorev1.ConfigMapApplyConfiguration](
		"configmaps", c, scheme.ParameterCodec, namespace,
		func() *corev1.ConfigMap { return &corev1.ConfigMap{} },
		func() *corev1.ConfigMapList { return &corev1.ConfigMapList{} },
		opts...)
}

func TestClientRequests(t *testing.T) {
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}
	timeout := int64(30)
	tests := []struct {
		name   string
		do     func(c *configMaps) error
		method string
		path   string
		query  string
		ctype  string
	}{
		{"Get", func(c *configMaps) error {
			_, err := c.Get(ctx, "cm", metav1.GetOptions{ResourceVersion: "5"})
			return err
		},
			"GET", "/api/v1/namespaces/ns/configmaps/cm", "resourceVersion=5", ""},
		{"List", func(c *configMaps) error {
			l, err := c.List(ctx, metav1.ListOptions{LabelSelector: "a=b", TimeoutSeconds: &timeout})
			if err == nil && len(l.Items) != 2 {
				t.Errorf("List returned %d items", len(l.Items))
			}
			return err
		}, "GET", "/api/v1/namespaces/ns/configmaps", "labelSelector=a%3Db&timeout=30s&timeoutSeconds=30", ""},
		{"Create", func(c *configMaps) error {
			_, err := c.Create(ctx, cm, metav1.CreateOptions{FieldManager: "m"})
			return err
		},
			"POST", "/api/v1/namespaces/ns/configmaps", "fieldManager=m", "application/json"},
		{"Update", func(c *configMaps) error { _, err := c.Update(ctx, cm, metav1.UpdateOptions{}); return err },
			"PUT", "/api/v1/namespaces/ns/configmaps/cm", "", "application/json"},
		{"UpdateStatus", func(c *configMaps) error { _, err := c.UpdateStatus(ctx, cm, metav1.UpdateOptions{}); return err },
			"PUT", "/api/v1/namespaces/ns/configmaps/cm/status", "", "application/json"},
		{"Delete", func(c *configMaps) error { return c.Delete(ctx, "cm", metav1.DeleteOptions{}) },
			"DELETE", "/api/v1/namespaces/ns/configmaps/cm", "", "application/json"},
		{"DeleteCollection", func(c *configMaps) error {
			return c.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "x=y"})
		}, "DELETE", "/api/v1/namespaces/ns/configmaps", "labelSelector=x%3Dy", "application/json"},
		{"Patch subresource", func(c *configMaps) error {
			_, err := c.Patch(ctx, "cm", types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}, "status")
			return err
		}, "PATCH", "/api/v1/namespaces/ns/configmaps/cm/status", "", "application/merge-patch+json"},
		{"Apply", func(c *configMaps) error {
			_, err := c.Apply(ctx, applycorev1.ConfigMap("cm", "ns").WithData(map[string]string{"k": "v"}), metav1.ApplyOptions{FieldManager: "m", Force: true})
			return err
		}, "PATCH", "/api/v1/namespaces/ns/configmaps/cm", "fieldManager=m&force=true", "application/apply-patch+yaml"},
		{"ApplyStatus", func(c *configMaps) error {
			_, err := c.ApplyStatus(ctx, applycorev1.ConfigMap("cm", "ns"), metav1.ApplyOptions{FieldManager: "m"})
			return err
		}, "PATCH", "/api/v1/namespaces/ns/configmaps/cm/status", "fieldManager=m&force=false", "application/apply-patch+yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, s := restClient(t, "application/json")
			if err := tt.do(newConfigMaps(rc, "ns")); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			got := s.last()
			if got.method != tt.method || got.path != tt.path || got.query != tt.query {
				t.Errorf("sent %s %s?%s, want %s %s?%s", got.method, got.path, got.query, tt.method, tt.path, tt.query)
			}
			if tt.ctype != "" && got.contentType != tt.ctype {
				t.Errorf("Content-Type = %q, want %q", got.contentType, tt.ctype)
			}
		})
	}
}

func TestApplyRejectsBadConfigurations(t *testing.T) {
	rc, s := restClient(t, "application/json")
	c := newConfigMaps(rc, "ns")
	if _, err := c.Apply(context.Background(), nil, metav1.ApplyOptions{FieldManager: "m"}); err == nil {
		t.Error("Apply(nil) succeeded")
	}
	if _, err := c.Apply(context.Background(), applycorev1.ConfigMap("", "ns").WithData(nil), metav1.ApplyOptions{}); err != nil {
		// An empty name is still a name; the server decides.
		t.Logf("Apply with empty name: %v", err)
	}
	noName := &applycorev1.ConfigMapApplyConfiguration{}
	noName.Data = map[string]string{"a": "b"}
	s.mu.Lock()
	before := len(s.log)
	s.mu.Unlock()
	if _, err := c.ApplyStatus(context.Background(), noName, metav1.ApplyOptions{FieldManager: "m"}); err == nil {
		t.Error("ApplyStatus without a name succeeded")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.log) != before {
		t.Error("a rejected apply reached the server")
	}
}

func TestProtobufPreference(t *testing.T) {
	tests := []struct {
		name        string
		contentType string
		prefer      bool
		wantProto   bool
	}{
		{"preferred and unset", "", true, true},
		{"not preferred", "", false, false},
		{"user chose JSON", "application/json", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc, s := restClient(t, tt.contentType)
			var opts []gentype.Option[*corev1.ConfigMap]
			if tt.prefer {
				opts = append(opts, gentype.PrefersProtobuf[*corev1.ConfigMap]())
			}
			// The JSON answer is accepted whatever was asked first.
			if _, err := newConfigMaps(rc, "ns", opts...).Get(context.Background(), "cm", metav1.GetOptions{}); err != nil {
				t.Fatalf("Get: %v", err)
			}
			accept := s.last().accept
			if got := strings.HasPrefix(accept, "application/vnd.kubernetes.protobuf"); got != tt.wantProto {
				t.Errorf("Accept = %q, want protobuf first: %v", accept, tt.wantProto)
			}
		})
	}
}

func TestClusterScopedClient(t *testing.T) {
	rc, s := restClient(t, "application/json")
	c := gentype.NewClient[*corev1.ConfigMap]("configmaps", rc, scheme.ParameterCodec, "", func() *corev1.ConfigMap { return &corev1.ConfigMap{} })
	if c.GetNamespace() != "" || c.GetClient() != rc {
		t.Error("accessors do not return the construction arguments")
	}
	if _, err := c.Get(context.Background(), "cm", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := s.last().path; got != "/api/v1/configmaps/cm" {
		t.Errorf("path = %q, want /api/v1/configmaps/cm", got)
	}
}

func TestPointerSlices(t *testing.T) {
	values := []int{1, 2, 3}
	ptrs := gentype.ToPointerSlice(values)
	*ptrs[1] = 20
	if values[1] != 20 {
		t.Error("ToPointerSlice does not alias the source")
	}
	back := gentype.FromPointerSlice(ptrs)
	back[0] = 10
	if values[0] != 1 || len(back) != 3 || back[1] != 20 {
		t.Errorf("FromPointerSlice = %v, source %v", back, values)
	}
	if gentype.ToPointerSlice[int](nil) != nil || gentype.FromPointerSlice[int](nil) != nil {
		t.Error("nil slices should stay nil")
	}
}
