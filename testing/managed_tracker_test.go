package testing

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/utils/ptr"
)

func TestFieldManagedTrackerDirectUse(t *testing.T) {
	s, d := testScheme(t)
	tr := NewServerLikeFieldManagedObjectTracker(s, d, managedfields.NewDeducedTypeConverter())

	must(t, tr.Create(configMapsGVR, configMap("ns", "c", map[string]string{"a": "1"}), "ns", metav1.CreateOptions{FieldManager: "maker"}))
	cm := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
	if len(cm.ManagedFields) != 1 || cm.ManagedFields[0].Manager != "maker" || cm.Generation != 1 || cm.ResourceVersion == "" {
		t.Fatalf("after create: %+v", cm.ObjectMeta)
	}

	cm.Data["b"] = "2"
	must(t, tr.Update(configMapsGVR, cm, "ns", metav1.UpdateOptions{FieldManager: "editor"}))
	if err := tr.Update(configMapsGVR, cm, "ns", metav1.UpdateOptions{FieldManager: "editor"}); !apierrors.IsConflict(err) {
		t.Errorf("stale update through the managed tracker: error = %v, want Conflict", err)
	}

	cm = mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
	cm.Data["c"] = "3"
	must(t, tr.Patch(configMapsGVR, cm, "ns", metav1.PatchOptions{FieldManager: "patcher"}))

	cfg := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "c", "namespace": "ns"},
		"data":     map[string]interface{}{"a": "changed"},
	}}
	if err := tr.Apply(configMapsGVR, cfg, "ns", metav1.PatchOptions{FieldManager: "applier"}); !apierrors.IsConflict(err) {
		t.Errorf("apply over a field owned by another manager: error = %v, want Conflict", err)
	}
	must(t, tr.Apply(configMapsGVR, cfg, "ns", metav1.PatchOptions{FieldManager: "applier", Force: ptr.To(true)}))
	cm = mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
	if cm.Data["a"] != "changed" || cm.Data["b"] != "2" || cm.Data["c"] != "3" {
		t.Errorf("data after forced apply = %v", cm.Data)
	}
	owned := map[string]string{}
	for _, e := range cm.ManagedFields {
		owned[e.Manager] = string(e.FieldsV1.Raw)
	}
	for _, m := range []string{"maker", "editor", "patcher", "applier"} {
		if _, ok := owned[m]; !ok {
			t.Errorf("manager %s missing from %v", m, owned)
		}
	}
	// The forced apply took data.a away from its creator.
	if strings.Contains(owned["maker"], `"f:a"`) || !strings.Contains(owned["applier"], `"f:a"`) {
		t.Errorf("ownership of data.a: maker %s, applier %s", owned["maker"], owned["applier"])
	}

	// Resources the scheme does not know are stored without field management.
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	w := &unstructured.Unstructured{}
	w.SetAPIVersion("example.com/v1")
	w.SetKind("Widget")
	w.SetName("w")
	must(t, tr.Create(widgets, w, ""))
	if _, err := tr.Get(widgets, "", "w"); err != nil {
		t.Errorf("unknown resource not stored: %v", err)
	}
}

func TestPlainTrackerApplyAndPatch(t *testing.T) {
	tr := newTestTracker(t)
	cfg := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "d", "namespace": "ns"},
		"spec":     map[string]interface{}{"replicas": int64(2)},
	}}
	must(t, tr.Apply(deploymentsGVR, cfg, "ns"))
	d, ok := mustGet(t, tr, deploymentsGVR, "ns", "d").(*appsv1.Deployment)
	if !ok || *d.Spec.Replicas != 2 {
		t.Fatalf("apply created %#v", d)
	}
	d.Spec.Replicas = ptr.To[int32](4)
	must(t, tr.Patch(deploymentsGVR, d, "ns"))
	if got := mustGet(t, tr, deploymentsGVR, "ns", "d").(*appsv1.Deployment); *got.Spec.Replicas != 4 || got.Generation != 2 {
		t.Errorf("after patch: replicas=%d generation=%d", *got.Spec.Replicas, got.Generation)
	}
	if err := tr.Create(podsGVR, pod("ns", "p"), "ns", metav1.CreateOptions{}, metav1.CreateOptions{}); err == nil {
		t.Error("two option arguments were accepted")
	}
}
