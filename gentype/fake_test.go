package gentype_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/gentype"
	"github.com/kubeclient/client-go/kubernetes/scheme"
	clienttesting "github.com/kubeclient/client-go/testing"
)

func newFakeConfigMaps(namespace string) (*gentype.FakeClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *applycorev1.ConfigMapApplyConfiguration], *clienttesting.Fake) {
	tracker := clienttesting.NewObjectTracker(scheme.Scheme, scheme.Codecs.UniversalDecoder())
	fake := &clienttesting.Fake{}
	fake.AddReactor("*", "*", clienttesting.ObjectReaction(tracker))
	c := gentype.NewFakeClientWithListAndApply[*corev1.ConfigMap, *corev1.ConfigMapList, *applycorev1.ConfigMapApplyConfiguration](
		fake, namespace,
		corev1.SchemeGroupVersion.WithResource("configmaps"), corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		func() *corev1.ConfigMap { return &corev1.ConfigMap{} },
		func() *corev1.ConfigMapList { return &corev1.ConfigMapList{} },
		func(dst, src *corev1.ConfigMapList) { dst.ListMeta = src.ListMeta },
		func(list *corev1.ConfigMapList) []*corev1.ConfigMap { return gentype.ToPointerSlice(list.Items) },
		func(list *corev1.ConfigMapList, items []*corev1.ConfigMap) {
			list.Items = gentype.FromPointerSlice(items)
		},
	)
	return c, fake
}

func TestFakeClientRecordsAndReacts(t *testing.T) {
	ctx := context.Background()
	c, fake := newFakeConfigMaps("ns")
	if c.Namespace() != "ns" || c.Resource().Resource != "configmaps" || c.Kind().Kind != "ConfigMap" {
		t.Errorf("accessors = %q %v %v", c.Namespace(), c.Resource(), c.Kind())
	}
	for _, name := range []string{"a", "b"} {
		labels := map[string]string{"keep": "no"}
		if name == "a" {
			labels["keep"] = "yes"
		}
		if _, err := c.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: labels}}, metav1.CreateOptions{}); err != nil {
			t.Fatalf("Create %s: %v", name, err)
		}
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil || got.Name != "a" {
		t.Fatalf("Get: %v %+v", err, got)
	}
	if _, err := c.Get(ctx, "zzz", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get missing: %v, want NotFound", err)
	}
	list, err := c.List(ctx, metav1.ListOptions{LabelSelector: "keep=yes"})
	if err != nil || len(list.Items) != 1 || list.Items[0].Name != "a" {
		t.Fatalf("List with selector: %v %+v", err, list)
	}
	// The filtered list keeps the reactor's list metadata: two writes to
	// configmaps after the tracker's initial count of 1.
	if list.ResourceVersion != "3" {
		t.Errorf("List resourceVersion = %q, want 3", list.ResourceVersion)
	}
	if err := c.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := c.Apply(ctx, nil, metav1.ApplyOptions{}); err == nil {
		t.Error("Apply(nil) succeeded")
	}
	verbs := []string{}
	for _, a := range fake.Actions() {
		verbs = append(verbs, a.GetVerb())
	}
	want := []string{"create", "create", "get", "get", "list", "delete"}
	if len(verbs) != len(want) {
		t.Fatalf("actions = %v, want %v", verbs, want)
	}
	for i := range want {
		if verbs[i] != want[i] {
			t.Errorf("action %d = %s, want %s", i, verbs[i], want[i])
		}
	}
}
