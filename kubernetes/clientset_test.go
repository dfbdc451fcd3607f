package kubernetes_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	"github.com/kubeclient/client-go/rest"
)

func TestNewForConfigBuildsEveryClient(t *testing.T) {
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: "https://example.invalid"})
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	clients := map[string]any{
		"AppsV1": cs.AppsV1(), "CoreV1": cs.CoreV1(), "BatchV1": cs.BatchV1(),
		"InternalV1alpha1": cs.InternalV1alpha1(), "StoragemigrationV1beta1": cs.StoragemigrationV1beta1(),
		"ResourceV1": cs.ResourceV1(), "AdmissionregistrationV1": cs.AdmissionregistrationV1(),
	}
	for name, c := range clients {
		if c == nil {
			t.Errorf("%s() is nil", name)
		}
	}
	if cs.Discovery() == nil {
		t.Error("Discovery() is nil")
	}
	if cs.CoreV1().RESTClient() == nil {
		t.Error("CoreV1().RESTClient() is nil")
	}
	var nilSet *kubernetes.Clientset
	if nilSet.Discovery() != nil {
		t.Error("Discovery() of a nil clientset is not nil")
	}
}

func TestNewForConfigRejectsQPSWithoutBurst(t *testing.T) {
	if _, err := kubernetes.NewForConfig(&rest.Config{Host: "https://example.invalid", QPS: 5}); err == nil {
		t.Fatal("NewForConfig accepted QPS without Burst")
	}
}

func TestClientsetReachesCoreAndGroupPaths(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), "application/json")
		w.Header().Set("Content-Type", "application/json")
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
		if err := scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion).Encode(pod, w); err != nil {
			t.Errorf("encode: %v", err)
		}
	}))
	defer srv.Close()
	cs := kubernetes.NewForConfigOrDie(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	pod, err := cs.CoreV1().Pods("ns").Get(context.Background(), "p", metav1.GetOptions{})
	if err != nil || pod.Name != "p" {
		t.Fatalf("Get: %v %+v", err, pod)
	}
	_, _ = cs.AppsV1().Deployments("ns").Get(context.Background(), "d", metav1.GetOptions{})
	_, _ = cs.RbacV1().ClusterRoles().Get(context.Background(), "admin", metav1.GetOptions{})
	want := []string{"/api/v1/namespaces/ns/pods/p", "/apis/apps/v1/namespaces/ns/deployments/d", "/apis/rbac.authorization.k8s.io/v1/clusterroles/admin"}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != len(want) {
		t.Fatalf("paths = %v, want %v", paths, want)
	}
	for i := range want {
		if paths[i] != want[i] {
			t.Errorf("request %d path = %q, want %q", i, paths[i], want[i])
		}
	}
}

func TestSchemeKnowsEveryGroup(t *testing.T) {
	for _, gvk := range []string{"apps/v1, Kind=Deployment", "/v1, Kind=Pod", "internal.apiserver.k8s.io/v1alpha1, Kind=StorageVersion"} {
		found := false
		for k := range scheme.Scheme.AllKnownTypes() {
			if k.String() == gvk {
				found = true
			}
		}
		if !found {
			t.Errorf("scheme does not know %s", gvk)
		}
	}
}
