package scheme_test

import (
	"testing"

	appsapiv1beta1 "k8s.io/api/apps/v1beta1"
	appsapiv1beta2 "k8s.io/api/apps/v1beta2"
	autoscalingapiv1 "k8s.io/api/autoscaling/v1"
	extensionsapiv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/scale/scheme"
	"github.com/kubeclient/client-go/scale/scheme/appsint"
	"github.com/kubeclient/client-go/scale/scheme/appsv1beta1"
	"github.com/kubeclient/client-go/scale/scheme/appsv1beta2"
	"github.com/kubeclient/client-go/scale/scheme/autoscalingv1"
	"github.com/kubeclient/client-go/scale/scheme/extensionsint"
	"github.com/kubeclient/client-go/scale/scheme/extensionsv1beta1"
)

// TestEachVersionConvertsToAndFromInternal registers one external version
// at a time next to the internal Scale and converts through it.
func TestEachVersionConvertsToAndFromInternal(t *testing.T) {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	tests := []struct {
		name     string
		add      func(*runtime.Scheme) error
		gv       schema.GroupVersion
		external runtime.Object
	}{
		{"autoscaling/v1", autoscalingv1.AddToScheme, autoscalingv1.SchemeGroupVersion, &autoscalingapiv1.Scale{}},
		{"extensions/v1beta1", extensionsv1beta1.AddToScheme, extensionsv1beta1.SchemeGroupVersion, &extensionsapiv1beta1.Scale{}},
		{"apps/v1beta1", appsv1beta1.AddToScheme, appsv1beta1.SchemeGroupVersion, &appsapiv1beta1.Scale{}},
		{"apps/v1beta2", appsv1beta2.AddToScheme, appsv1beta2.SchemeGroupVersion, &appsapiv1beta2.Scale{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := runtime.NewScheme()
			for _, add := range []func(*runtime.Scheme) error{scheme.AddToScheme, tc.add} {
				if err := add(s); err != nil {
					t.Fatal(err)
				}
			}
			if tc.gv.String() != tc.name {
				t.Errorf("SchemeGroupVersion = %v", tc.gv)
			}
			in := &scheme.Scale{
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
				Spec:       scheme.ScaleSpec{Replicas: 4},
				Status:     scheme.ScaleStatus{Replicas: 2, Selector: selector},
			}
			if err := s.Convert(in, tc.external, nil); err != nil {
				t.Fatalf("internal -> %s: %v", tc.name, err)
			}
			back := &scheme.Scale{}
			if err := s.Convert(tc.external, back, nil); err != nil {
				t.Fatalf("%s -> internal: %v", tc.name, err)
			}
			if back.Name != "web" || back.Spec.Replicas != 4 || back.Status.Replicas != 2 ||
				back.Status.Selector == nil || back.Status.Selector.MatchLabels["app"] != "web" {
				t.Errorf("round trip through %s = %+v", tc.name, back)
			}
		})
	}
}

func TestGroupHelpers(t *testing.T) {
	tests := []struct {
		got, want any
	}{
		{scheme.SchemeGroupVersion, schema.GroupVersion{Group: "autoscaling", Version: runtime.APIVersionInternal}},
		{scheme.Kind("Scale"), schema.GroupKind{Group: "autoscaling", Kind: "Scale"}},
		{scheme.Resource("scales"), schema.GroupResource{Group: "autoscaling", Resource: "scales"}},
		{appsint.SchemeGroupVersion, schema.GroupVersion{Group: "apps", Version: runtime.APIVersionInternal}},
		{appsint.Kind("Scale"), schema.GroupKind{Group: "apps", Kind: "Scale"}},
		{extensionsint.Resource("replicasets"), schema.GroupResource{Group: "extensions", Resource: "replicasets"}},
		{appsv1beta2.Resource("deployments"), schema.GroupResource{Group: "apps", Resource: "deployments"}},
		{autoscalingv1.GroupName, "autoscaling"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %v, want %v", tc.got, tc.want)
		}
	}
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{scheme.AddToScheme, appsint.AddToScheme, extensionsint.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	gvks, _, err := s.ObjectKinds(&scheme.Scale{})
	if err != nil || len(gvks) != 3 {
		t.Errorf("internal Scale registered as %v, %v; want under autoscaling, apps and extensions", gvks, err)
	}
}
