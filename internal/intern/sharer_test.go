package intern

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// podJSON is a small pod of a ReplicaSet; %d makes its name, UID and IP
// its own.
const podJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-%[1]d","namespace":"shop",
"uid":"uid-%[1]d","resourceVersion":"%[1]d","labels":{"app":"web","pod-template-hash":"7d4b"},
"annotations":{"prometheus.io/scrape":"true"},"finalizers":["example.com/guard"],
"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d4b","uid":"rs-uid","controller":true}],
"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-11-30T09:14:07Z",
"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}},
{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-11-30T09:14:19Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:status":{"f:podIP":{}}},"subresource":"status"}]},
"spec":{"nodeSelector":{"disk":"ssd"},"containers":[{"name":"app","image":"registry.example.com/web:1.0","args":["--port","8080"],
"resources":{"limits":{"cpu":"1","memory":"512Mi"},"requests":{"cpu":"250m","memory":"256Mi"}},
"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
"livenessProbe":{"httpGet":{"path":"/healthz","port":"http"}}}]},
"status":{"phase":"Running","podIP":"10.0.0.%[1]d","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T09:14:19Z"}],
"containerStatuses":[{"name":"app","ready":true,"restartCount":0,"image":"registry.example.com/web:1.0","imageID":"","containerID":"containerd://%[1]d","state":{"running":{"startedAt":"2026-11-30T09:14:11Z"}}}]}}`

func decodeInto[T any](t *testing.T, i int, into T) T {
	t.Helper()
	if err := json.Unmarshal([]byte(fmt.Sprintf(podJSON, i)), into); err != nil {
		t.Fatal(err)
	}
	return into
}

func pod(t *testing.T, i int) *corev1.Pod { return decodeInto(t, i, &corev1.Pod{}) }

func unstructuredPod(t *testing.T, i int) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON([]byte(fmt.Sprintf(podJSON, i))); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestShareKeepsObjectsEqual shares objects of several shapes: each stays
// DeepEqual to its copy from before.
func TestShareKeepsObjectsEqual(t *testing.T) {
	deployment := &appsv1.Deployment{}
	deployment.Namespace = "shop"
	deployment.Spec.Template.Labels = map[string]string{"app": "web"}
	deployment.Spec.Template.Spec = pod(t, 3).Spec
	metadata := &metav1.PartialObjectMetadata{ObjectMeta: pod(t, 4).ObjectMeta}
	tests := []struct {
		name string
		obj  interface{}
	}{
		{"pod", pod(t, 1)},
		{"unstructured pod", unstructuredPod(t, 2)},
		{"deployment with a pod template", deployment},
		{"recursive type", newSchema()},
		{"metadata only", metadata},
		{"empty pod", &corev1.Pod{}},
		{"nil pod", (*corev1.Pod)(nil)},
		{"not a pointer", corev1.Pod{}},
		{"not a struct", &[]string{"a"}},
	}
	for _, share := range []*Sharer{NewSharer(true), NewSharer(false)} {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := deepCopy(tt.obj)
				first := share.Copy(tt.obj)
				second := share.Copy(deepCopy(tt.obj))
				if !reflect.DeepEqual(before, tt.obj) {
					t.Errorf("sharing changed the object:\n%#v\nwas\n%#v", tt.obj, before)
				}
				if !reflect.DeepEqual(before, first) || !reflect.DeepEqual(before, second) {
					t.Errorf("the shared copy differs:\n%#v\nwas\n%#v", first, before)
				}
			})
		}
	}
}

// schema is a recursive type, like a CRD's JSON schema, with fields of
// named string and slice types.
type schema struct {
	Type     schemaType
	Items    *schema
	All      []schema
	Enum     []string
	Required names
	Formats  []schemaType
}

type (
	schemaType string
	names      []string
)

func newSchema() *schema {
	return &schema{Type: "object", Required: names{"spec"}, Formats: []schemaType{"date"},
		Items: &schema{Type: "array", All: []schema{{Type: "string", Enum: []string{"a", "b"}}}}}
}

func deepCopy(obj interface{}) interface{} {
	switch o := obj.(type) {
	case *schema:
		return newSchema()
	case runtime.Object:
		if !reflect.ValueOf(o).IsNil() {
			return o.DeepCopyObject()
		}
	}
	return obj
}

// TestShareDedupsBytesAndMaps shares two pods decoded apart: their equal
// FieldsV1 sets and resource lists become one, unless dedup is off.
func TestShareDedupsBytesAndMaps(t *testing.T) {
	for _, dedup := range []bool{true, false} {
		t.Run(fmt.Sprintf("dedup=%v", dedup), func(t *testing.T) {
			s := NewSharer(dedup)
			a, b := pod(t, 1), pod(t, 2)
			a, b = s.Copy(a).(*corev1.Pod), s.Copy(b).(*corev1.Pod)
			rawA, rawB := a.ManagedFields[0].FieldsV1.Raw, b.ManagedFields[0].FieldsV1.Raw
			if shared := &rawA[0] == &rawB[0]; shared != dedup {
				t.Errorf("FieldsV1 shared: %v, want %v", shared, dedup)
			}
			limitsA, limitsB := a.Spec.Containers[0].Resources.Limits, b.Spec.Containers[0].Resources.Limits
			if shared := reflect.ValueOf(limitsA).Pointer() == reflect.ValueOf(limitsB).Pointer(); shared != dedup {
				t.Errorf("resource limits shared: %v, want %v", shared, dedup)
			}
			if reflect.ValueOf(a.Labels).Pointer() == reflect.ValueOf(b.Labels).Pointer() {
				t.Error("labels maps are shared; only their strings may be")
			}
		})
	}
}

// TestDeepCopySharesNothing: the DeepCopy of a shared object holds no map
// or slice of it, so writing into the copy cannot reach the cache.
func TestDeepCopySharesNothing(t *testing.T) {
	s := NewSharer(true)
	other := pod(t, 1)
	other = s.Copy(other).(*corev1.Pod)
	cached := pod(t, 2)
	cached = s.Copy(cached).(*corev1.Pod)
	private := cached.DeepCopy()
	if !reflect.DeepEqual(cached, private) {
		t.Fatal("DeepCopy differs")
	}
	inCache := map[uintptr]string{}
	collectShareable(reflect.ValueOf(cached), "pod", func(p uintptr, path string) { inCache[p] = path })
	collectShareable(reflect.ValueOf(private), "copy", func(p uintptr, path string) {
		if was, ok := inCache[p]; ok {
			t.Errorf("%s shares memory with %s", path, was)
		}
	})
	// The check has teeth: the two cached pods do share.
	shared := 0
	collectShareable(reflect.ValueOf(other), "other", func(p uintptr, _ string) {
		if _, ok := inCache[p]; ok {
			shared++
		}
	})
	if len(inCache) < 10 || shared < 3 {
		t.Fatalf("found %d maps and slices, %d shared by the cached pods", len(inCache), shared)
	}
}

// collectShareable calls fn with the address of every non-empty map and
// slice reachable from v.
func collectShareable(v reflect.Value, path string, fn func(uintptr, string)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectShareable(v.Elem(), path, fn)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			collectShareable(v.Field(i), path+"."+v.Type().Field(i).Name, fn)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			fn(v.Pointer(), path)
		}
		for i := 0; i < v.Len(); i++ {
			collectShareable(v.Index(i), fmt.Sprintf("%s[%d]", path, i), fn)
		}
	case reflect.Map:
		if v.Len() > 0 {
			fn(v.Pointer(), path)
		}
		for it := v.MapRange(); it.Next(); {
			collectShareable(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), fn)
		}
	}
}

// TestShareUnstructured shares two unstructured pods: they stay equal to
// what they were, and to their typed form.
func TestShareUnstructured(t *testing.T) {
	s := NewSharer(true)
	a, b := unstructuredPod(t, 1), unstructuredPod(t, 2)
	wantB := b.DeepCopy()
	a, b = s.Copy(a).(*unstructured.Unstructured), s.Copy(b).(*unstructured.Unstructured)
	if !reflect.DeepEqual(wantB, b) {
		t.Errorf("sharing changed the object:\n%v\nwas\n%v", b, wantB)
	}
}

// TestShareDedupsUnstructuredFields shares two unstructured pods: their
// equal fieldsV1 trees become one, unless dedup is off, and a DeepCopy
// shares no map or slice with them.
func TestShareDedupsUnstructuredFields(t *testing.T) {
	fieldsOf := func(u *unstructured.Unstructured) map[string]interface{} {
		return u.Object["metadata"].(map[string]interface{})["managedFields"].([]interface{})[0].(map[string]interface{})["fieldsV1"].(map[string]interface{})
	}
	for _, dedup := range []bool{true, false} {
		t.Run(fmt.Sprintf("dedup=%v", dedup), func(t *testing.T) {
			s := NewSharer(dedup)
			a, b := unstructuredPod(t, 1), unstructuredPod(t, 2)
			a, b = s.Copy(a).(*unstructured.Unstructured), s.Copy(b).(*unstructured.Unstructured)
			if shared := reflect.ValueOf(fieldsOf(a)).Pointer() == reflect.ValueOf(fieldsOf(b)).Pointer(); shared != dedup {
				t.Errorf("fieldsV1 shared: %v, want %v", shared, dedup)
			}
			inCache := map[uintptr]bool{}
			collectShareable(reflect.ValueOf(b.Object), "b", func(p uintptr, _ string) { inCache[p] = true })
			collectShareable(reflect.ValueOf(b.DeepCopy().Object), "copy", func(p uintptr, path string) {
				if inCache[p] {
					t.Errorf("%s shares memory with the cached object", path)
				}
			})
		})
	}
}

func TestJSONEqualIsDeepEqual(t *testing.T) {
	values := []interface{}{
		nil, "a", "b", int64(1), int64(2), 1.5, true, false,
		map[string]interface{}(nil), map[string]interface{}{}, map[string]interface{}{"a": int64(1)}, map[string]interface{}{"a": int64(2)},
		map[string]interface{}{"b": int64(1)}, []interface{}(nil), []interface{}{}, []interface{}{"a"}, []interface{}{"a", "b"},
		map[string]interface{}{"f:spec": map[string]interface{}{".": map[string]interface{}{}}},
		map[string]interface{}{"f:spec": map[string]interface{}{".": map[string]interface{}(nil)}},
	}
	seed := maphash.MakeSeed()
	for _, a := range values {
		for _, b := range values {
			if got, want := jsonEqual(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("jsonEqual(%#v, %#v) = %v, want %v", a, b, got, want)
			}
			if reflect.DeepEqual(a, b) {
				var na, nb int
				ha, _ := jsonHash(seed, a, &na)
				hb, _ := jsonHash(seed, b, &nb)
				if ha != hb {
					t.Errorf("equal values %#v and %#v hash differently", a, b)
				}
			}
		}
	}
}

// TestQuantitiesIdenticalIsDeepEqual compares quantities made in the ways
// that leave different representations of one value.
func TestQuantitiesIdenticalIsDeepEqual(t *testing.T) {
	if !quantityLayout.ok {
		t.Fatal("resource.Quantity is not laid out as expected: sharing resource lists falls back to reflect.DeepEqual")
	}
	parsed := func(s string) resource.Quantity {
		var q resource.Quantity
		if err := json.Unmarshal([]byte(`"`+s+`"`), &q); err != nil {
			t.Fatal(err)
		}
		return q
	}
	big := parsed("1e40")
	values := []resource.Quantity{
		parsed("1"), parsed("1"), parsed("1000m"), parsed("250m"), parsed("512Mi"), parsed("0.5Gi"),
		resource.MustParse("1"), *resource.NewQuantity(1, resource.DecimalSI), *resource.NewMilliQuantity(1000, resource.DecimalSI),
		*resource.NewQuantity(1, resource.BinarySI), big, parsed("1e40"), parsed("2e40"), {},
	}
	for i := range values {
		for j := range values {
			a, b := values[i], values[j]
			if got, want := quantitiesIdentical(&a, &b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("quantitiesIdentical(%d %v, %d %v) = %v, want %v", i, &a, j, &b, got, want)
			}
		}
	}
	la := corev1.ResourceList{"cpu": parsed("1"), "memory": parsed("512Mi")}
	lb := corev1.ResourceList{"cpu": parsed("1"), "memory": parsed("512Mi")}
	lc := corev1.ResourceList{"cpu": parsed("1000m"), "memory": parsed("512Mi")}
	if !resourceListsEqual(la, lb) || resourceListsEqual(la, lc) || resourceListsEqual(la, nil) || resourceListsEqual(corev1.ResourceList{}, nil) {
		t.Error("resourceListsEqual disagrees with reflect.DeepEqual")
	}
}
