package testing

import (
	"reflect"
	"sort"

	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

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

	// A resource the scheme does not know cannot be written, as with
	// client-go's field-managed tracker: the REST mapper's error.
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	w := &unstructured.Unstructured{}
	w.SetAPIVersion("example.com/v1")
	w.SetKind("Widget")
	w.SetName("w")
	writes := map[string]func() error{
		"create": func() error { return tr.Create(widgets, w, "") },
		"update": func() error { return tr.Update(widgets, w, "") },
		"patch":  func() error { return tr.Patch(widgets, w, "") },
		"apply":  func() error { return tr.Apply(widgets, w, "", metav1.PatchOptions{FieldManager: "m"}) },
	}
	for name, write := range writes {
		if err := write(); !meta.IsNoMatchError(err) {
			t.Errorf("%s of an unknown resource: %v, want a no-match error", name, err)
		}
	}
	if _, err := tr.Get(widgets, "", "w"); !apierrors.IsNotFound(err) {
		t.Errorf("unknown resource stored: %v", err)
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

// managersOf lists the managed fields entries of obj as
// "manager/operation/subresource", sorted (the field manager orders entries
// by time, which has a resolution of a second).
func managersOf(t *testing.T, obj runtime.Object) []string {
	t.Helper()
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range m.GetManagedFields() {
		out = append(out, e.Manager+"/"+string(e.Operation)+"/"+e.Subresource)
	}
	sort.Strings(out)
	return out
}

// The object given to Create, Update and Patch of the field-managed
// tracker is the one the field manager works on, as in client-go: the
// caller (controller-runtime's fake client among others) reads its kind and
// managed fields back from it.
func TestFieldManagedTrackerFillsInCallersObject(t *testing.T) {
	s, d := testScheme(t)
	tr := NewFieldManagedObjectTracker(s, d, managedfields.NewDeducedTypeConverter())

	created := configMap("ns", "c", map[string]string{"method": "create"})
	must(t, tr.Create(configMapsGVR, created, "ns", metav1.CreateOptions{FieldManager: "owner"}))

	updated := created.DeepCopy()
	updated.Data["method"] = "update"
	updated.ManagedFields = nil
	must(t, tr.Update(configMapsGVR, updated, "ns", metav1.UpdateOptions{FieldManager: "updater"}))

	patched := updated.DeepCopy()
	patched.Data["patched"] = "yes"
	patched.ManagedFields = nil
	must(t, tr.Patch(configMapsGVR, patched, "ns", metav1.PatchOptions{FieldManager: "patcher"}))

	tests := []struct {
		name     string
		obj      *corev1.ConfigMap
		managers []string
	}{
		{"create", created, []string{"owner/Update/"}},
		{"update", updated, []string{"owner/Update/", "updater/Update/"}},
		{"patch", patched, []string{"owner/Update/", "patcher/Update/", "updater/Update/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.obj.GroupVersionKind(); got != configMapKind {
				t.Errorf("kind of the caller's object = %v, want %v", got, configMapKind)
			}
			if got := managersOf(t, tc.obj); !reflect.DeepEqual(got, tc.managers) {
				t.Errorf("managed fields of the caller's object = %v, want %v", got, tc.managers)
			}
		})
	}
	if got := managersOf(t, mustGet(t, tr, configMapsGVR, "ns", "c")); !reflect.DeepEqual(got, tests[2].managers) {
		t.Errorf("stored managed fields = %v, want %v", got, tests[2].managers)
	}
}

// An update whose managed fields are the single empty entry resets them
// (only the updating manager remains); one that leaves them unset keeps the
// stored ones, and the field manager drops entries it cannot decode. These
// are the rules controller-runtime's fake relies on to refuse a rewrite of
// managed fields through a status update.
func TestFieldManagedTrackerManagedFieldsInUpdates(t *testing.T) {
	tests := []struct {
		name     string
		given    []metav1.ManagedFieldsEntry
		managers []string
	}{
		{"unset keeps the stored entries", nil, []string{"creator/Update/", "second/Update/"}},
		{"one empty entry resets", []metav1.ManagedFieldsEntry{{}}, []string{"second/Update/"}},
		{"explicit entries replace", []metav1.ManagedFieldsEntry{{
			Manager: "forged", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{"f:a":{}}}`)},
		}}, []string{"forged/Update/", "second/Update/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, d := testScheme(t)
			tr := NewFieldManagedObjectTracker(s, d, managedfields.NewDeducedTypeConverter())
			must(t, tr.Create(configMapsGVR, configMap("ns", "c", map[string]string{"a": "1"}), "ns", metav1.CreateOptions{FieldManager: "creator"}))
			cm := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
			cm.Data["b"] = "2"
			cm.ManagedFields = tc.given
			must(t, tr.Update(configMapsGVR, cm, "ns", metav1.UpdateOptions{FieldManager: "second"}))
			if got := managersOf(t, mustGet(t, tr, configMapsGVR, "ns", "c")); !reflect.DeepEqual(got, tc.managers) {
				t.Errorf("stored managed fields = %v, want %v", got, tc.managers)
			}
		})
	}
}

// A create that fails because the object exists leaves an unchanged copy
// of it without managed fields, as client-go's tracker does (the field
// manager compares it with the stored object, not with an empty one).
func TestFieldManagedTrackerCreateOfExistingObject(t *testing.T) {
	s, d := testScheme(t)
	tr := NewFieldManagedObjectTracker(s, d, managedfields.NewDeducedTypeConverter())
	must(t, tr.Add(configMap("ns", "c", map[string]string{"a": "1"})))

	again := configMap("ns", "c", map[string]string{"a": "1"})
	if err := tr.Create(configMapsGVR, again, "ns"); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("Create of an existing object: error = %v, want AlreadyExists", err)
	}
	if again.ManagedFields != nil {
		t.Errorf("the failed create gave the caller's object managed fields %v", managersOf(t, again))
	}

	changed := configMap("ns", "c", map[string]string{"a": "2"})
	if err := tr.Create(configMapsGVR, changed, "ns", metav1.CreateOptions{FieldManager: "m"}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("Create of an existing object: error = %v, want AlreadyExists", err)
	}
	if got := managersOf(t, changed); !reflect.DeepEqual(got, []string{"m/Update/"}) {
		t.Errorf("a failed create that changes data records %v, want [m/Update/]", got)
	}
}
