package testing

import (
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
)

var (
	podsGVR        = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	podKind        = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	configMapKind  = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	deploymentKind = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
)

// testScheme returns a scheme with the core and apps groups, the way a
// generated fake clientset registers them.
func testScheme(t testing.TB) (*runtime.Scheme, runtime.Decoder) {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return s, serializer.NewCodecFactory(s).UniversalDecoder()
}

func newTestTracker(t testing.TB) *tracker {
	s, d := testScheme(t)
	return NewServerLikeObjectTracker(s, d).(*tracker)
}

func pod(ns, name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
	}
}

func configMap(ns, name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: data}
}

func deployment(ns, name string, replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       appsv1.DeploymentSpec{Replicas: &replicas},
	}
}

func rvOf(t testing.TB, obj runtime.Object) int64 {
	t.Helper()
	m, err := meta.CommonAccessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	rv, err := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q of %T is not an integer", m.GetResourceVersion(), obj)
	}
	return rv
}

func mustGet(t testing.TB, tr ObjectTracker, gvr schema.GroupVersionResource, ns, name string) runtime.Object {
	t.Helper()
	obj, err := tr.Get(gvr, ns, name)
	if err != nil {
		t.Fatalf("get %s %s/%s: %v", gvr.Resource, ns, name, err)
	}
	return obj
}

// eventSummary is the part of a watch event the tests compare.
type eventSummary struct {
	Type watch.EventType
	Name string
}

// nextEvents reads n events from w, failing after a timeout.
func nextEvents(t testing.TB, w watch.Interface, n int) []eventSummary {
	t.Helper()
	var out []eventSummary
	timeout := time.After(5 * time.Second)
	for len(out) < n {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed after %d of %d events: %v", len(out), n, out)
			}
			m, err := meta.Accessor(ev.Object)
			if err != nil {
				t.Fatalf("event object %T has no metadata", ev.Object)
			}
			out = append(out, eventSummary{ev.Type, m.GetName()})
		case <-timeout:
			t.Fatalf("timed out after %d of %d events: %v", len(out), n, out)
		}
	}
	return out
}
