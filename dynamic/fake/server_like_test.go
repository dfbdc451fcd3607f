package fake_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/dynamic/fake"
)

// These tests use fake.NewServerLikeDynamicClient as a test of a dynamic
// controller would: through dynamic.Interface only.

var gadgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}

func gadget(ns, name string, spec map[string]interface{}) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1",
		"kind":       "Gadget",
		"metadata":   map[string]interface{}{"namespace": ns},
		"spec":       spec,
	}}
	if name != "" {
		u.SetName(name)
	}
	return u
}

func TestServerLikeDynamicGenerateName(t *testing.T) {
	ctx := context.Background()
	c := fake.NewServerLikeDynamicClient(runtime.NewScheme(), gadget("ns", "seed", nil))
	seen := map[string]bool{}
	for range 3 {
		g := gadget("ns", "", map[string]interface{}{"size": "s"})
		g.SetGenerateName("gadget-")
		got, err := c.Resource(gadgets).Namespace("ns").Create(ctx, g, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("Create: %v", err)
		}
		if !strings.HasPrefix(got.GetName(), "gadget-") || len(got.GetName()) == len("gadget-") || seen[got.GetName()] {
			t.Errorf("generated name %q: want a new gadget-<suffix>", got.GetName())
		}
		seen[got.GetName()] = true
		if got.GetUID() == "" || got.GetResourceVersion() == "" || got.GetGeneration() != 1 {
			t.Errorf("server metadata not filled in: uid %q rv %q generation %d", got.GetUID(), got.GetResourceVersion(), got.GetGeneration())
		}
	}
}

func TestServerLikeDynamicConflictOnStaleUpdate(t *testing.T) {
	ctx := context.Background()
	c := fake.NewServerLikeDynamicClient(runtime.NewScheme(), gadget("ns", "seed", nil))
	client := c.Resource(gadgets).Namespace("ns")
	created, err := client.Create(ctx, gadget("ns", "g", map[string]interface{}{"size": "s"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fresh := created.DeepCopy()
	if err := unstructured.SetNestedField(fresh.Object, "m", "spec", "size"); err != nil {
		t.Fatal(err)
	}
	updated, err := client.Update(ctx, fresh, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	tests := []struct {
		name     string
		rv       string
		conflict bool
	}{
		{"stale", created.GetResourceVersion(), true},
		{"current", updated.GetResourceVersion(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj := created.DeepCopy()
			obj.SetResourceVersion(tc.rv)
			if err := unstructured.SetNestedField(obj.Object, "l-"+tc.name, "spec", "size"); err != nil {
				t.Fatal(err)
			}
			_, err := client.Update(ctx, obj, metav1.UpdateOptions{})
			if got := apierrors.IsConflict(err); got != tc.conflict {
				t.Fatalf("Update error = %v, conflict %v; want conflict %v", err, got, tc.conflict)
			}
		})
	}
}

func TestServerLikeDynamicListByFieldSelector(t *testing.T) {
	ctx := context.Background()
	c := fake.NewServerLikeDynamicClient(runtime.NewScheme(),
		gadget("ns", "small", map[string]interface{}{"size": "s"}),
		gadget("ns", "large", map[string]interface{}{"size": "l"}),
		gadget("other", "tiny", map[string]interface{}{"size": "s"}),
	)
	tests := []struct {
		namespace, selector string
		want                []string
	}{
		{"", "spec.size=s", []string{"small", "tiny"}},
		{"ns", "spec.size=s", []string{"small"}},
		{"", "metadata.name!=small", []string{"large", "tiny"}},
		{"", "metadata.namespace=other", []string{"tiny"}},
		{"", "spec.size=xl", nil},
	}
	for _, tc := range tests {
		t.Run(tc.namespace+"/"+tc.selector, func(t *testing.T) {
			list, err := c.Resource(gadgets).Namespace(tc.namespace).List(ctx, metav1.ListOptions{FieldSelector: tc.selector})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			var got []string
			for _, item := range list.Items {
				got = append(got, item.GetName())
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestServerLikeDynamicWatchFromResourceVersion(t *testing.T) {
	ctx := context.Background()
	// A typed seed object: the dynamic fake serves it as unstructured.
	seed := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "seed", Namespace: "ns"}}
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c := fake.NewServerLikeDynamicClient(scheme, seed)
	configMaps := c.Resource(corev1.SchemeGroupVersion.WithResource("configmaps")).Namespace("ns")

	list, err := configMaps.List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	cm := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]interface{}{"name": "later"},
		"data":     map[string]interface{}{"k": "v"},
	}}
	if _, err := configMaps.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := configMaps.Delete(ctx, "seed", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	w, err := configMaps.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()
	want := []struct {
		typ  watch.EventType
		name string
	}{
		{watch.Added, "later"},
		{watch.Deleted, "seed"},
	}
	for i, ev := range want {
		var got watch.Event
		select {
		case got = <-w.ResultChan():
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %d", i)
		}
		u, ok := got.Object.(*unstructured.Unstructured)
		if !ok || got.Type != ev.typ || u.GetName() != ev.name {
			t.Fatalf("event %d = %s %T, want %s %s as unstructured", i, got.Type, got.Object, ev.typ, ev.name)
		}
	}
}

func TestServerLikeDynamicApplyWithTwoFieldManagers(t *testing.T) {
	ctx := context.Background()
	c := fake.NewServerLikeDynamicClient(runtime.NewScheme(), gadget("ns", "seed", nil))
	client := c.Resource(gadgets).Namespace("ns")
	apply := func(manager string, force bool, spec map[string]interface{}) (*unstructured.Unstructured, error) {
		return client.Apply(ctx, "g", gadget("ns", "g", spec), metav1.ApplyOptions{FieldManager: manager, Force: force})
	}

	if _, err := apply("alice", false, map[string]interface{}{"size": "s", "color": "red"}); err != nil {
		t.Fatalf("alice's apply: %v", err)
	}
	got, err := apply("bob", false, map[string]interface{}{"shape": "round"})
	if err != nil {
		t.Fatalf("bob's apply: %v", err)
	}
	spec, _, _ := unstructured.NestedStringMap(got.Object, "spec")
	if want := map[string]string{"size": "s", "color": "red", "shape": "round"}; !maps.Equal(spec, want) {
		t.Errorf("spec = %v, want %v", spec, want)
	}

	_, err = apply("bob", false, map[string]interface{}{"shape": "round", "color": "blue"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "alice") {
		t.Fatalf("bob's apply of alice's field: error = %v, want a conflict naming alice", err)
	}
	if got, err = apply("bob", true, map[string]interface{}{"shape": "round", "color": "blue"}); err != nil {
		t.Fatalf("bob's forced apply: %v", err)
	}
	if color, _, _ := unstructured.NestedString(got.Object, "spec", "color"); color != "blue" {
		t.Errorf("color after the forced apply = %q, want blue", color)
	}
	var managers []string
	for _, e := range got.GetManagedFields() {
		managers = append(managers, e.Manager)
	}
	slices.Sort(managers)
	if !slices.Equal(managers, []string{"alice", "bob"}) {
		t.Errorf("managers = %v, want alice and bob", managers)
	}
}
