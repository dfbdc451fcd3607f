package rest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// The rest package must not depend on kubernetes/scheme, so its tests build
// their own scheme holding core/v1 and the meta types.
var (
	testScheme = runtime.NewScheme()
	testCodecs = serializer.NewCodecFactory(testScheme)
	testParams = runtime.NewParameterCodec(testScheme)
)

func init() {
	utilruntime.Must(corev1.AddToScheme(testScheme))
	metav1.AddToGroupVersion(testScheme, schema.GroupVersion{Version: "v1"})
}

// coreV1Config returns a Config for the core/v1 API of the server at host,
// with throttling off so tests are not slowed down.
func coreV1Config(host string) *Config {
	return &Config{
		Host:    host,
		APIPath: "/api",
		ContentConfig: ContentConfig{
			GroupVersion:         &corev1.SchemeGroupVersion,
			NegotiatedSerializer: testCodecs.WithoutConversion(),
		},
		QPS: -1,
	}
}

// coreV1Client returns a RESTClient for core/v1 on srv.
func coreV1Client(t *testing.T, srv *httptest.Server, mutate ...func(*Config)) *RESTClient {
	t.Helper()
	cfg := coreV1Config(srv.URL)
	for _, m := range mutate {
		m(cfg)
	}
	c, err := RESTClientFor(cfg)
	if err != nil {
		t.Fatalf("RESTClientFor: %v", err)
	}
	return c
}

// writeJSON answers with obj as a Kubernetes JSON body.
func writeJSON(t *testing.T, w http.ResponseWriter, code int, obj runtime.Object) {
	t.Helper()
	data, err := runtime.Encode(testCodecs.LegacyCodec(corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Errorf("encode %T: %v", obj, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(data)
}

// statusBody returns a metav1.Status failure as the API server sends it.
func statusBody(code int32, reason metav1.StatusReason, message string) *metav1.Status {
	return &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Code:     code,
		Reason:   reason,
		Message:  message,
	}
}

func testPod(name string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", ResourceVersion: "7"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
