package fake

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	clienttesting "github.com/kubeclient/client-go/testing"

	"github.com/kubeclient/client-go/internal/resourcefake"
)

var (
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
)

func widget(ns, name string, labels map[string]string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]interface{}{"name": name, "namespace": ns},
		"spec":       map[string]interface{}{"size": int64(1)},
	}}
	u.SetLabels(labels)
	return u
}

func newTestClient(t *testing.T) *FakeDynamicClient {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p1"}}
	return NewSimpleDynamicClient(scheme, pod,
		widget("ns", "a", map[string]string{"app": "web"}),
		widget("ns", "b", map[string]string{"app": "db"}),
		widget("other", "c", map[string]string{"app": "web"}))
}

func TestSeededObjectsAreUnstructured(t *testing.T) {
	c := newTestClient(t)
	ctx := context.Background()
	pod, err := c.Resource(podsGVR).Namespace("ns").Get(ctx, "p1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pod.GetKind() != "Pod" || pod.GetAPIVersion() != "v1" {
		t.Errorf("typed pod came back as %s %s", pod.GetAPIVersion(), pod.GetKind())
	}
	pods, err := c.Resource(podsGVR).List(ctx, metav1.ListOptions{})
	if err != nil || len(pods.Items) != 1 || pods.GetKind() != "PodList" {
		t.Fatalf("pods: %v, %v", pods, err)
	}
	if _, err := c.Resource(podsGVR).Namespace("ns").Get(ctx, "nope", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("missing pod: %v", err)
	}
}

// serverLike switches c to a tracker made by
// clienttesting.NewServerLikeObjectTracker holding the same objects, the
// way a test opts in to API-server semantics.
func serverLike(t *testing.T, c *FakeDynamicClient) *FakeDynamicClient {
	t.Helper()
	tr := clienttesting.NewServerLikeObjectTracker(c.scheme, serializer.NewCodecFactory(c.scheme).UniversalDecoder())
	for gvr := range c.listKinds {
		list, err := c.tracker.List(gvr, gvr.GroupVersion().WithKind(strings.TrimSuffix(c.listKinds[gvr], "List")), "")
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Add(list); err != nil {
			t.Fatal(err)
		}
	}
	c.tracker = tr
	c.ReactionChain, c.WatchReactionChain = nil, nil
	c.AddReactor("*", "*", clienttesting.ObjectReaction(tr))
	c.AddWatchReactor("*", resourcefake.WatchTracker(tr, c.unstructuredEvent))
	return c
}

func TestListHonoursScopeAndSelectors(t *testing.T) {
	c := serverLike(t, newTestClient(t))
	tests := []struct {
		name      string
		namespace string
		opts      metav1.ListOptions
		want      []string
	}{
		{"all namespaces", "", metav1.ListOptions{}, []string{"a", "b", "c"}},
		{"one namespace", "ns", metav1.ListOptions{}, []string{"a", "b"}},
		{"label selector", "", metav1.ListOptions{LabelSelector: "app=web"}, []string{"a", "c"}},
		{"field selector", "", metav1.ListOptions{FieldSelector: "metadata.name=b"}, []string{"b"}},
		{"namespace field selector", "", metav1.ListOptions{FieldSelector: "metadata.namespace=other"}, []string{"c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := c.Resource(widgetsGVR).Namespace(tc.namespace).List(context.Background(), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, item := range list.Items {
				got = append(got, item.GetName())
				if item.GetKind() != "Widget" {
					t.Errorf("item kind %q", item.GetKind())
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if list.GetKind() != "WidgetList" || list.GetAPIVersion() != "example.com/v1" || list.GetResourceVersion() == "" {
				t.Errorf("list %s %s rv %q", list.GetAPIVersion(), list.GetKind(), list.GetResourceVersion())
			}
		})
	}
}

func TestWritesBehaveLikeAServer(t *testing.T) {
	c := serverLike(t, newTestClient(t))
	ctx := context.Background()
	widgets := c.Resource(widgetsGVR).Namespace("ns")

	created, err := widgets.Create(ctx, widget("ns", "new", nil), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetResourceVersion() == "" || created.GetUID() == "" {
		t.Errorf("create did not fill in resourceVersion/uid: %v", created.Object["metadata"])
	}
	if _, err := widgets.Create(ctx, widget("ns", "new", nil), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create: %v", err)
	}

	stale := created.DeepCopy()
	unstructured.SetNestedField(created.Object, int64(2), "spec", "size")
	updated, err := widgets.Update(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if updated.GetResourceVersion() == created.GetResourceVersion() {
		t.Error("update did not bump resourceVersion")
	}
	if _, err := widgets.Update(ctx, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update with a stale resourceVersion: %v", err)
	}

	patched, err := widgets.Patch(ctx, "new", types.MergePatchType, []byte(`{"spec":{"size":5}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if size, _, _ := unstructured.NestedInt64(patched.Object, "spec", "size"); size != 5 {
		t.Errorf("patched size %d", size)
	}

	withStatus := patched.DeepCopy()
	unstructured.SetNestedField(withStatus.Object, "ready", "status", "phase")
	unstructured.SetNestedField(withStatus.Object, int64(99), "spec", "size")
	afterStatus, err := widgets.UpdateStatus(ctx, withStatus, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	phase, _, _ := unstructured.NestedString(afterStatus.Object, "status", "phase")
	size, _, _ := unstructured.NestedInt64(afterStatus.Object, "spec", "size")
	if phase != "ready" || size != 5 {
		t.Errorf("status update: phase %q size %d, want ready and an unchanged spec", phase, size)
	}

	applied, err := widgets.Apply(ctx, "applied", widget("ns", "applied", map[string]string{"via": "apply"}), metav1.ApplyOptions{FieldManager: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if applied.GetLabels()["via"] != "apply" {
		t.Errorf("apply created %v", applied.Object)
	}

	if err := widgets.Delete(ctx, "new", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := widgets.Get(ctx, "new", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: %v", err)
	}
	if err := widgets.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=web"}); err != nil {
		t.Fatal(err)
	}
	left, err := c.Resource(widgetsGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, item := range left.Items {
		names = append(names, item.GetNamespace()+"/"+item.GetName())
	}
	if strings.Join(names, ",") != "ns/applied,ns/b,other/c" {
		t.Errorf("after delete-collection in ns: %v", names)
	}

	var verbs []string
	for _, a := range c.Actions() {
		verbs = append(verbs, a.GetVerb())
	}
	want := "create,create,update,update,patch,update,patch,delete,get,delete-collection,list"
	if strings.Join(verbs, ",") != want {
		t.Errorf("actions %v, want %s", verbs, want)
	}
}

func TestWatchFromResourceVersionMissesNothing(t *testing.T) {
	c := serverLike(t, newTestClient(t))
	ctx := context.Background()
	widgets := c.Resource(widgetsGVR).Namespace("ns")

	list, err := widgets.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Changes made between the list and the watch must still be delivered.
	if _, err := widgets.Create(ctx, widget("ns", "between", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := widgets.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := widgets.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := c.Resource(widgetsGVR).Namespace("other").Create(ctx, widget("other", "elsewhere", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := widgets.Create(ctx, widget("ns", "after", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	want := []struct {
		typ  watch.EventType
		name string
	}{{watch.Added, "between"}, {watch.Deleted, "a"}, {watch.Added, "after"}}
	for _, exp := range want {
		select {
		case ev := <-w.ResultChan():
			u, ok := ev.Object.(*unstructured.Unstructured)
			if !ok || ev.Type != exp.typ || u.GetName() != exp.name {
				t.Fatalf("got %s %#v, want %s %s", ev.Type, ev.Object, exp.typ, exp.name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no event for %s %s", exp.typ, exp.name)
		}
	}

	labelled, err := widgets.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion(), LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	defer labelled.Stop()
	select {
	case ev := <-labelled.ResultChan():
		if u := ev.Object.(*unstructured.Unstructured); ev.Type != watch.Deleted || u.GetName() != "a" {
			t.Fatalf("label-filtered watch got %s %s", ev.Type, u.GetName())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("label-filtered watch saw nothing")
	}
}

func TestTypedPodWatchEventsAreUnstructured(t *testing.T) {
	c := newTestClient(t)
	w, err := c.Resource(podsGVR).Namespace("ns").Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	select {
	case ev := <-w.ResultChan():
		u, ok := ev.Object.(*unstructured.Unstructured)
		if !ok || ev.Type != watch.Added || u.GetName() != "p1" || u.GetKind() != "Pod" {
			t.Fatalf("got %s %T", ev.Type, ev.Object)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no initial event")
	}
}

func TestReactorsAndCustomListKinds(t *testing.T) {
	gadgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgetries"}
	c := NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{gadgets: "GadgetList"},
		&unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "example.com/v1", "kind": "Gadget",
			"metadata": map[string]interface{}{"name": "g", "namespace": "ns"},
		}})
	// The tracker guesses "gadgets" from the kind, so the seeded object is
	// not under gadgetries; create one there.
	ctx := context.Background()
	if _, err := c.Resource(gadgets).Namespace("ns").Create(ctx, &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]interface{}{"name": "g2"},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := c.Resource(gadgets).List(ctx, metav1.ListOptions{})
	if err != nil || list.GetKind() != "GadgetList" || len(list.Items) != 1 || list.Items[0].GetName() != "g2" {
		t.Fatalf("custom list kind: %v, %v", list, err)
	}
	if _, err := c.Resource(schema.GroupVersionResource{Group: "x", Version: "v1", Resource: "unknowns"}).List(ctx, metav1.ListOptions{}); err == nil ||
		!strings.Contains(err.Error(), "no list kind") {
		t.Errorf("list of an unregistered resource: %v", err)
	}

	boom := errors.New("boom")
	c.PrependReactor("get", "gadgetries", func(action clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, boom
	})
	if _, err := c.Resource(gadgets).Namespace("ns").Get(ctx, "g2", metav1.GetOptions{}); !errors.Is(err, boom) {
		t.Errorf("reactor error not returned: %v", err)
	}
	if c.Tracker() == nil || !c.IsWatchListSemanticsUnSupported() {
		t.Error("Tracker or IsWatchListSemanticsUnSupported")
	}

	func() {
		defer func() {
			if recover() == nil {
				t.Error("a list kind without the List suffix was accepted")
			}
		}()
		NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{gadgets: "Gadgets"})
	}()
}
