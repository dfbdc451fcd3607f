package applyconfigurations_test

import (
	"encoding/json"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/applyconfigurations"
	applyappsv1 "github.com/kubeclient/client-go/applyconfigurations/apps/v1"
	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/applyconfigurations/internal"
	"github.com/kubeclient/client-go/kubernetes/scheme"
)

func TestSchemaParses(t *testing.T) {
	p := internal.Parser()
	for _, name := range []string{"io.k8s.api.apps.v1.Deployment", "io.k8s.api.core.v1.PodSpec", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"} {
		if _, ok := p.Schema.FindNamedType(name); !ok {
			t.Errorf("schema lacks %s", name)
		}
	}
}

func deployment() *appsv1.Deployment {
	replicas := int32(3)
	return &appsv1.Deployment{
		TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "web", Namespace: "ns",
			Labels: map[string]string{"app": "web", "team": "blue"},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager: "deployer", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "apps/v1",
				FieldsType: "FieldsV1",
				FieldsV1:   &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:name":{},"f:image":{}}}}}}}`)},
			}, {
				Manager: "controller", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "apps/v1",
				Subresource: "status", FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:readyReplicas":{}}}`)},
			}},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{
				{Name: "app", Image: "nginx:1", Args: []string{"-v"}},
				{Name: "sidecar", Image: "envoy"},
			}}},
		},
		Status: appsv1.DeploymentStatus{ReadyReplicas: 2, Replicas: 3},
	}
}

func TestExtractDeployment(t *testing.T) {
	got, err := applyappsv1.ExtractDeployment(deployment(), "deployer")
	if err != nil {
		t.Fatalf("ExtractDeployment: %v", err)
	}
	want := applyappsv1.Deployment("web", "ns").
		WithLabels(map[string]string{"app": "web"}).
		WithSpec(applyappsv1.DeploymentSpec().
			WithReplicas(3).
			WithTemplate(applycorev1.PodTemplateSpec().
				WithSpec(applycorev1.PodSpec().
					WithContainers(applycorev1.Container().WithName("app").WithImage("nginx:1")))))
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("ExtractDeployment =\n%s\nwant\n%s", g, w)
	}
}

func TestExtractDeploymentStatus(t *testing.T) {
	got, err := applyappsv1.ExtractDeploymentStatus(deployment(), "controller")
	if err != nil {
		t.Fatalf("ExtractDeploymentStatus: %v", err)
	}
	if got.Status == nil || got.Status.ReadyReplicas == nil || *got.Status.ReadyReplicas != 2 || got.Status.Replicas != nil || got.Spec != nil {
		b, _ := json.Marshal(got)
		t.Errorf("ExtractDeploymentStatus = %s, want only status.readyReplicas", b)
	}
	none, err := applyappsv1.ExtractDeployment(deployment(), "nobody")
	if err != nil || none.Spec != nil || *none.GetName() != "web" {
		t.Errorf("extract for an unknown manager = %+v, %v; want name only", none, err)
	}
}

func TestApplyConfigurationJSON(t *testing.T) {
	cfg := applyappsv1.Deployment("web", "ns").
		WithSpec(applyappsv1.DeploymentSpec().WithReplicas(0).WithPaused(false))
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"ns"},"spec":{"replicas":0,"paused":false}}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
}

func TestWithPanicsOnNilElement(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("WithContainers(nil) did not panic")
		}
	}()
	applycorev1.PodSpec().WithContainers(nil)
}

func TestForKind(t *testing.T) {
	tests := []struct {
		gvk  schema.GroupVersionKind
		want any
	}{
		{appsv1.SchemeGroupVersion.WithKind("Deployment"), &applyappsv1.DeploymentApplyConfiguration{}},
		{corev1.SchemeGroupVersion.WithKind("PodSpec"), &applycorev1.PodSpecApplyConfiguration{}},
		{appsv1.SchemeGroupVersion.WithKind("NoSuchKind"), nil},
	}
	for _, tt := range tests {
		got := applyconfigurations.ForKind(tt.gvk)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ForKind(%v) = %T, want %T", tt.gvk, got, tt.want)
		}
	}
}

func TestTypeConverter(t *testing.T) {
	tc := applyconfigurations.NewTypeConverter(scheme.Scheme)
	obj, err := tc.ObjectToTyped(deployment())
	if err != nil {
		t.Fatalf("ObjectToTyped: %v", err)
	}
	set, err := obj.ToFieldSet()
	if err != nil {
		t.Fatalf("ToFieldSet: %v", err)
	}
	// Containers are a list map keyed by name.
	if s := set.String(); !contains(s, `.spec.template.spec.containers[name="sidecar"]`) {
		t.Errorf("field set does not key containers by name:\n%s", s)
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
