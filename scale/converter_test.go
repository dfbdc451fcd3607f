package scale_test

import (
	"reflect"
	"testing"

	appsv1beta1 "k8s.io/api/apps/v1beta1"
	appsv1beta2 "k8s.io/api/apps/v1beta2"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/scale"
	scalescheme "github.com/kubeclient/client-go/scale/scheme"
)

func TestConvertBetweenScaleVersions(t *testing.T) {
	c := scale.NewScaleConverter()
	meta := metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "4"}
	labelsOnly := &autoscalingv1.Scale{ObjectMeta: meta, Spec: autoscalingv1.ScaleSpec{Replicas: 2}, Status: autoscalingv1.ScaleStatus{Replicas: 1, Selector: "app=web"}}
	withSetRequirement := &autoscalingv1.Scale{ObjectMeta: meta, Spec: autoscalingv1.ScaleSpec{Replicas: 2}, Status: autoscalingv1.ScaleStatus{Replicas: 1, Selector: "app=web,tier in (front)"}}

	tests := []struct {
		name string
		in   runtime.Object
		to   schema.GroupVersion
		want runtime.Object
	}{
		{"labels to extensions", labelsOnly, extensionsv1beta1.SchemeGroupVersion, &extensionsv1beta1.Scale{
			ObjectMeta: meta, Spec: extensionsv1beta1.ScaleSpec{Replicas: 2},
			Status: extensionsv1beta1.ScaleStatus{Replicas: 1, Selector: map[string]string{"app": "web"}, TargetSelector: "app=web"},
		}},
		{"set requirement to apps/v1beta1 keeps only targetSelector", withSetRequirement, appsv1beta1.SchemeGroupVersion, &appsv1beta1.Scale{
			ObjectMeta: meta, Spec: appsv1beta1.ScaleSpec{Replicas: 2},
			Status: appsv1beta1.ScaleStatus{Replicas: 1, TargetSelector: "app=web,tier in (front)"},
		}},
		{"apps/v1beta2 map selector to autoscaling", &appsv1beta2.Scale{
			ObjectMeta: meta, Spec: appsv1beta2.ScaleSpec{Replicas: 2},
			Status: appsv1beta2.ScaleStatus{Replicas: 1, Selector: map[string]string{"app": "web"}},
		}, autoscalingv1.SchemeGroupVersion, labelsOnly},
		{"targetSelector wins over the map", &extensionsv1beta1.Scale{
			ObjectMeta: meta, Spec: extensionsv1beta1.ScaleSpec{Replicas: 2},
			Status: extensionsv1beta1.ScaleStatus{Replicas: 1, Selector: map[string]string{"ignored": "yes"}, TargetSelector: "app=web,tier in (front)"},
		}, autoscalingv1.SchemeGroupVersion, withSetRequirement},
		{"no selector", &appsv1beta1.Scale{ObjectMeta: meta, Spec: appsv1beta1.ScaleSpec{Replicas: 2}}, autoscalingv1.SchemeGroupVersion,
			&autoscalingv1.Scale{ObjectMeta: meta, Spec: autoscalingv1.ScaleSpec{Replicas: 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.ConvertToVersion(tc.in, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			// TypeMeta is set by the scheme; compare the rest.
			got.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestConvertRejectsBadSelector(t *testing.T) {
	c := scale.NewScaleConverter()
	in := &autoscalingv1.Scale{Status: autoscalingv1.ScaleStatus{Selector: "app in (unclosed"}}
	if _, err := c.ConvertToVersion(in, extensionsv1beta1.SchemeGroupVersion); err == nil {
		t.Error("an unparsable selector was converted")
	}
}

func TestConverterSchemeKnowsEveryVersion(t *testing.T) {
	c := scale.NewScaleConverter()
	if len(c.ScaleVersions()) != 7 {
		t.Errorf("ScaleVersions() = %v", c.ScaleVersions())
	}
	for _, gv := range c.ScaleVersions() {
		if !c.Scheme().Recognizes(gv.WithKind("Scale")) {
			t.Errorf("the scheme does not know %v Scale", gv)
		}
	}
	internal := &scalescheme.Scale{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Status: scalescheme.ScaleStatus{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}}}
	copied := internal.DeepCopy()
	copied.Status.Selector.MatchLabels["a"] = "changed"
	if internal.Status.Selector.MatchLabels["a"] != "b" {
		t.Error("DeepCopy shares the selector")
	}
	if _, ok := internal.DeepCopyObject().(*scalescheme.Scale); !ok {
		t.Error("DeepCopyObject did not return a *Scale")
	}
	data, err := runtime.Encode(c.Codecs().LegacyCodec(appsv1beta2.SchemeGroupVersion), &appsv1beta2.Scale{Spec: appsv1beta2.ScaleSpec{Replicas: 4}})
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := runtime.Decode(c.Codecs().UniversalDecoder(c.ScaleVersions()...), data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := decoded.(*appsv1beta2.Scale); !ok {
		t.Errorf("decoded %T", decoded)
	}
}
