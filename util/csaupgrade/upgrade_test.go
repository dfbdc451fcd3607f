package csaupgrade_test

import (
	"encoding/json"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kubeclient/client-go/util/csaupgrade"
)

const (
	csaManager = "kubectl-client-side-apply"
	ssaManager = "kubectl"
)

var (
	lastApplied = fieldpath.MakePathOrDie("metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration")
	appLabel    = fieldpath.MakePathOrDie("metadata", "labels", "app")
	replicas    = fieldpath.MakePathOrDie("spec", "replicas")
	image       = fieldpath.MakePathOrDie("spec", "template", "spec", "containers")
	status      = fieldpath.MakePathOrDie("status", "replicas")
)

func fields(t *testing.T, paths ...fieldpath.Path) *metav1.FieldsV1 {
	t.Helper()
	raw, err := fieldpath.NewSet(paths...).ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	return &metav1.FieldsV1{Raw: raw}
}

func entry(t *testing.T, manager string, op metav1.ManagedFieldsOperationType, apiVersion, subresource string, paths ...fieldpath.Path) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{
		Manager: manager, Operation: op, APIVersion: apiVersion, Subresource: subresource,
		FieldsType: "FieldsV1", FieldsV1: fields(t, paths...),
	}
}

func ownedPaths(t *testing.T, e metav1.ManagedFieldsEntry) *fieldpath.Set {
	t.Helper()
	s := &fieldpath.Set{}
	if err := s.FromJSON(e.FieldsV1.GetRawReader()); err != nil {
		t.Fatal(err)
	}
	return s
}

func deployment(entries ...metav1.ManagedFieldsEntry) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "42", ManagedFields: entries}}
}

func TestUpgradeManagedFields(t *testing.T) {
	update, apply := metav1.ManagedFieldsOperationUpdate, metav1.ManagedFieldsOperationApply
	controller := func(t *testing.T) metav1.ManagedFieldsEntry {
		return entry(t, "kube-controller-manager", update, "apps/v1", "status", status)
	}
	type want struct {
		manager string
		op      metav1.ManagedFieldsOperationType
		sub     string
		paths   []fieldpath.Path
	}
	tests := []struct {
		name    string
		entries func(t *testing.T) []metav1.ManagedFieldsEntry
		opts    []csaupgrade.Option
		want    []want
	}{
		{
			name: "client-side apply entry becomes the apply entry",
			entries: func(t *testing.T) []metav1.ManagedFieldsEntry {
				return []metav1.ManagedFieldsEntry{entry(t, csaManager, update, "apps/v1", "", lastApplied, replicas), controller(t)}
			},
			want: []want{{ssaManager, apply, "", []fieldpath.Path{lastApplied, replicas}}, {"kube-controller-manager", update, "status", []fieldpath.Path{status}}},
		},
		{
			name: "merged into an existing apply entry; all client-side entries dropped",
			entries: func(t *testing.T) []metav1.ManagedFieldsEntry {
				return []metav1.ManagedFieldsEntry{
					entry(t, ssaManager, apply, "apps/v1", "", image),
					entry(t, csaManager, update, "apps/v1", "", lastApplied, replicas),
					entry(t, csaManager, update, "apps/v1beta1", "", appLabel),
					controller(t),
				}
			},
			want: []want{{ssaManager, apply, "", []fieldpath.Path{image, lastApplied, replicas}}, {"kube-controller-manager", update, "status", []fieldpath.Path{status}}},
		},
		{
			name: "most recent client-side entry wins; older same-version entry merged",
			entries: func(t *testing.T) []metav1.ManagedFieldsEntry {
				return []metav1.ManagedFieldsEntry{
					entry(t, csaManager, update, "apps/v1", "", replicas),
					entry(t, csaManager, update, "apps/v1", "", appLabel),
				}
			},
			want: []want{{ssaManager, apply, "", []fieldpath.Path{replicas, appLabel}}},
		},
		{
			name: "subresource option upgrades only that subresource",
			entries: func(t *testing.T) []metav1.ManagedFieldsEntry {
				return []metav1.ManagedFieldsEntry{
					entry(t, csaManager, update, "apps/v1", "", replicas),
					entry(t, csaManager, update, "apps/v1", "status", status),
				}
			},
			opts: []csaupgrade.Option{csaupgrade.Subresource("status")},
			want: []want{{csaManager, update, "", []fieldpath.Path{replicas}}, {ssaManager, apply, "status", []fieldpath.Path{status}}},
		},
		{
			name: "nothing to upgrade",
			entries: func(t *testing.T) []metav1.ManagedFieldsEntry {
				return []metav1.ManagedFieldsEntry{controller(t)}
			},
			want: []want{{"kube-controller-manager", update, "status", []fieldpath.Path{status}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj := deployment(tc.entries(t)...)
			if err := csaupgrade.UpgradeManagedFields(obj, sets.New(csaManager), ssaManager, tc.opts...); err != nil {
				t.Fatal(err)
			}
			got := obj.ManagedFields
			if len(got) != len(tc.want) {
				t.Fatalf("got %d entries %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				e := got[i]
				if e.Manager != w.manager || e.Operation != w.op || e.Subresource != w.sub {
					t.Errorf("entry %d = %s/%s/%q, want %s/%s/%q", i, e.Manager, e.Operation, e.Subresource, w.manager, w.op, w.sub)
				}
				if owned := ownedPaths(t, e); !owned.Equals(fieldpath.NewSet(w.paths...)) {
					t.Errorf("entry %d owns %v, want %v", i, owned, w.paths)
				}
			}
		})
	}
}

func TestUpgradeSeveralManagersAndUnstructured(t *testing.T) {
	update := metav1.ManagedFieldsOperationUpdate
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("stable.example.com/v1")
	u.SetKind("CronTab")
	u.SetName("ct")
	u.SetManagedFields([]metav1.ManagedFieldsEntry{
		entry(t, "old-kubectl", update, "stable.example.com/v1", "", replicas),
		entry(t, csaManager, update, "stable.example.com/v1", "", appLabel),
	})
	if err := csaupgrade.UpgradeManagedFields(u, sets.New("old-kubectl", csaManager), ssaManager); err != nil {
		t.Fatal(err)
	}
	got := u.GetManagedFields()
	if len(got) != 1 || got[0].Manager != ssaManager || got[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Fatalf("managed fields = %+v, want one apply entry", got)
	}
	if owned := ownedPaths(t, got[0]); !owned.Equals(fieldpath.NewSet(replicas, appLabel)) {
		t.Errorf("apply entry owns %v", owned)
	}
}

func TestUpgradeErrors(t *testing.T) {
	if err := csaupgrade.UpgradeManagedFields(&metav1.Status{}, sets.New(csaManager), ssaManager); err == nil {
		t.Error("an object without metadata was accepted")
	}
	broken := deployment(metav1.ManagedFieldsEntry{
		Manager: csaManager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1",
		FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":`)},
	})
	if err := csaupgrade.UpgradeManagedFields(broken, sets.New(csaManager), ssaManager); err == nil {
		t.Error("an undecodable field set was accepted")
	}
	if _, err := csaupgrade.UpgradeManagedFieldsPatch(broken, sets.New(csaManager), ssaManager); err == nil {
		t.Error("UpgradeManagedFieldsPatch accepted an undecodable field set")
	}
}

func TestUpgradeManagedFieldsPatch(t *testing.T) {
	update := metav1.ManagedFieldsOperationUpdate
	original := []metav1.ManagedFieldsEntry{
		entry(t, csaManager, update, "apps/v1", "", lastApplied, replicas),
		entry(t, ssaManager, metav1.ManagedFieldsOperationApply, "apps/v1", "", image),
	}
	obj := deployment(original...)
	before := obj.DeepCopy()

	patch, err := csaupgrade.UpgradeManagedFieldsPatch(obj, sets.New(csaManager), ssaManager)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(obj, before) {
		t.Error("UpgradeManagedFieldsPatch changed the object")
	}
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(patch, &ops); err != nil {
		t.Fatalf("patch is not a JSON patch: %v\n%s", err, patch)
	}
	if len(ops) != 2 || ops[0].Op != "replace" || ops[0].Path != "/metadata/managedFields" ||
		ops[1].Op != "replace" || ops[1].Path != "/metadata/resourceVersion" || string(ops[1].Value) != `"42"` {
		t.Fatalf("patch = %s", patch)
	}
	var patched []metav1.ManagedFieldsEntry
	if err := json.Unmarshal(ops[0].Value, &patched); err != nil {
		t.Fatal(err)
	}
	// The patch carries what UpgradeManagedFields computes.
	if err := csaupgrade.UpgradeManagedFields(obj, sets.New(csaManager), ssaManager); err != nil {
		t.Fatal(err)
	}
	if len(patched) != 1 || len(obj.ManagedFields) != 1 || !ownedPaths(t, patched[0]).Equals(ownedPaths(t, obj.ManagedFields[0])) {
		t.Errorf("patch managed fields %+v differ from the upgrade %+v", patched, obj.ManagedFields)
	}

	// Upgraded already: nothing to patch.
	patch, err = csaupgrade.UpgradeManagedFieldsPatch(obj, sets.New(csaManager), ssaManager)
	if err != nil || patch != nil {
		t.Errorf("second patch = %s, %v; want nil, nil", patch, err)
	}
}

func TestFindFieldsOwners(t *testing.T) {
	update, apply := metav1.ManagedFieldsOperationUpdate, metav1.ManagedFieldsOperationApply
	entries := []metav1.ManagedFieldsEntry{
		entry(t, "a", update, "apps/v1", "", replicas, appLabel),
		entry(t, "b", update, "apps/v1", "", replicas),
		entry(t, "c", apply, "apps/v1", "", replicas, appLabel),
		{Manager: "broken", Operation: update, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte("{")}},
	}
	tests := []struct {
		op     metav1.ManagedFieldsOperationType
		fields *fieldpath.Set
		want   []string
	}{
		{update, fieldpath.NewSet(replicas), []string{"a", "b"}},
		{update, fieldpath.NewSet(replicas, appLabel), []string{"a"}},
		{apply, fieldpath.NewSet(appLabel), []string{"c"}},
		{update, fieldpath.NewSet(image), nil},
	}
	for _, tc := range tests {
		var got []string
		for _, e := range csaupgrade.FindFieldsOwners(entries, tc.op, tc.fields) {
			got = append(got, e.Manager)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FindFieldsOwners(%s, %v) = %v, want %v", tc.op, tc.fields, got, tc.want)
		}
	}
}
