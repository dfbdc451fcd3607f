package fake

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"github.com/kubeclient/client-go/applyconfigurations"
	applyappsv1 "github.com/kubeclient/client-go/applyconfigurations/apps/v1"
	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/kubernetes"
	clienttesting "github.com/kubeclient/client-go/testing"
)

var _ kubernetes.Interface = NewClientset()

// newServerLikeClientset is NewClientset backed by the tracker of
// clienttesting.NewServerLikeFieldManagedObjectTracker: the opt-in to
// API-server semantics (uids, resourceVersions and conflicts, generation,
// generateName, finalizers, selectors, status-only status writes).
func newServerLikeClientset(objects ...runtime.Object) *Clientset {
	tracker := clienttesting.NewServerLikeFieldManagedObjectTracker(scheme, codecs.UniversalDecoder(), applyconfigurations.NewTypeConverter(scheme))
	return newClientset(tracker, objects)
}

func pod(name, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}
}

func deployment(name string, replicas int32) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}
}

// nextEvent returns the next watch event or fails after a generous timeout.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed early")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no watch event within 5s")
	}
	return watch.Event{}
}

func TestPodLifecycle(t *testing.T) {
	ctx := context.Background()
	cs := newServerLikeClientset()
	pods := cs.CoreV1().Pods("default")

	w, err := pods.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()

	created, err := pods.Create(ctx, pod("p1", "n1"), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if created.ResourceVersion == "" || created.UID == "" {
		t.Errorf("Create did not fill resourceVersion/uid: %+v", created.ObjectMeta)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Added {
		t.Errorf("first event = %s, want ADDED", ev.Type)
	}
	if _, err := pods.Create(ctx, pod("p1", "n1"), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second Create error = %v, want AlreadyExists", err)
	}

	got, err := pods.Get(ctx, "p1", metav1.GetOptions{})
	if err != nil || got.Spec.NodeName != "n1" {
		t.Fatalf("Get = %v, %v", got, err)
	}
	list, err := pods.List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("List = %v, %v; want one pod", list, err)
	}

	got.Labels["tier"] = "front"
	updated, err := pods.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil || updated.Labels["tier"] != "front" {
		t.Fatalf("Update = %v, %v", updated, err)
	}
	if nextEvent(t, w).Type != watch.Modified {
		t.Error("Update sent no MODIFIED event")
	}

	updated.Status.Phase = corev1.PodRunning
	status, err := pods.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil || status.Status.Phase != corev1.PodRunning {
		t.Fatalf("UpdateStatus = %v, %v", status, err)
	}
	nextEvent(t, w)

	patches := []struct {
		name  string
		pt    types.PatchType
		data  string
		check func(*corev1.Pod) bool
	}{
		{"json", types.JSONPatchType, `[{"op":"add","path":"/metadata/labels/json","value":"yes"}]`, func(p *corev1.Pod) bool { return p.Labels["json"] == "yes" }},
		{"merge", types.MergePatchType, `{"metadata":{"labels":{"merge":"yes"}}}`, func(p *corev1.Pod) bool { return p.Labels["merge"] == "yes" }},
		{"strategic", types.StrategicMergePatchType, `{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}`, func(p *corev1.Pod) bool {
			return len(p.Spec.Containers) == 1 && p.Spec.Containers[0].Image == "nginx:2"
		}},
	}
	for _, tc := range patches {
		t.Run("patch-"+tc.name, func(t *testing.T) {
			p, err := pods.Patch(ctx, "p1", tc.pt, []byte(tc.data), metav1.PatchOptions{})
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if !tc.check(p) {
				t.Errorf("patched pod does not show the change: %+v", p)
			}
			if p.Labels["tier"] != "front" {
				t.Errorf("patch lost earlier labels: %v", p.Labels)
			}
			nextEvent(t, w)
		})
	}

	applied, err := pods.Apply(ctx, applycorev1.Pod("p1", "default").WithLabels(map[string]string{"applied": "yes"}), metav1.ApplyOptions{FieldManager: "test", Force: true})
	if err != nil || applied.Labels["applied"] != "yes" {
		t.Fatalf("Apply = %v, %v", applied, err)
	}
	nextEvent(t, w)

	if err := pods.Delete(ctx, "p1", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Deleted {
		t.Errorf("event after Delete = %s, want DELETED", ev.Type)
	}
	if _, err := pods.Get(ctx, "p1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get after Delete error = %v, want NotFound", err)
	}

	for _, n := range []string{"a", "b"} {
		if _, err := pods.Create(ctx, pod(n, "n1"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := pods.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "app=web"}); err != nil {
		t.Fatalf("DeleteCollection: %v", err)
	}
	if list, _ := pods.List(ctx, metav1.ListOptions{}); len(list.Items) != 0 {
		t.Errorf("%d pods left after DeleteCollection", len(list.Items))
	}
}

func TestDeploymentLifecycle(t *testing.T) {
	ctx := context.Background()
	cs := NewClientset(deployment("seeded", 1))
	deps := cs.AppsV1().Deployments("default")

	if _, err := deps.Get(ctx, "seeded", metav1.GetOptions{}); err != nil {
		t.Fatalf("Get of a seeded object: %v", err)
	}
	d, err := deps.Create(ctx, deployment("web", 2), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	d.Spec.Replicas = ptr.To[int32](3)
	if d, err = deps.Update(ctx, d, metav1.UpdateOptions{}); err != nil || *d.Spec.Replicas != 3 {
		t.Fatalf("Update = %v, %v", d, err)
	}
	d.Status.ReadyReplicas = 3
	if d, err = deps.UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil || d.Status.ReadyReplicas != 3 {
		t.Fatalf("UpdateStatus = %v, %v", d, err)
	}
	if d, err = deps.Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{}); err != nil || !d.Spec.Paused {
		t.Fatalf("merge Patch = %v, %v", d, err)
	}
	if d, err = deps.Patch(ctx, "web", types.StrategicMergePatchType, []byte(`{"metadata":{"annotations":{"a":"b"}}}`), metav1.PatchOptions{}); err != nil || d.Annotations["a"] != "b" {
		t.Fatalf("strategic Patch = %v, %v", d, err)
	}
	if d, err = deps.Patch(ctx, "web", types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/paused","value":false}]`), metav1.PatchOptions{}); err != nil || d.Spec.Paused {
		t.Fatalf("JSON Patch = %v, %v", d, err)
	}
	cfg := applyappsv1.Deployment("web", "default").WithSpec(applyappsv1.DeploymentSpec().WithMinReadySeconds(7))
	if d, err = deps.Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "test", Force: true}); err != nil || d.Spec.MinReadySeconds != 7 {
		t.Fatalf("Apply = %v, %v", d, err)
	}
	if len(d.ManagedFields) == 0 {
		t.Error("Apply through NewClientset recorded no managed fields")
	}
	scale, err := deps.GetScale(ctx, "web", metav1.GetOptions{})
	if err != nil || scale.Spec.Replicas != 3 {
		t.Fatalf("GetScale = %v, %v", scale, err)
	}
	list, err := deps.List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 2 {
		t.Fatalf("List = %v, %v; want 2 deployments", list, err)
	}
	if err := deps.Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := deps.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		t.Fatalf("DeleteCollection: %v", err)
	}
	if list, _ := deps.List(ctx, metav1.ListOptions{}); len(list.Items) != 0 {
		t.Errorf("%d deployments left", len(list.Items))
	}
}

func TestStaleUpdateConflicts(t *testing.T) {
	ctx := context.Background()
	pods := newServerLikeClientset().CoreV1().Pods("default")
	// Created rather than seeded: seeded objects keep their empty
	// resourceVersion, and an update without one is unconditional.
	first, err := pods.Create(ctx, pod("p", ""), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	second := first.DeepCopy()
	first.Labels["x"] = "1"
	if _, err := pods.Update(ctx, first, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("first Update: %v", err)
	}
	second.Labels["x"] = "2"
	if _, err := pods.Update(ctx, second, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("stale Update error = %v, want Conflict", err)
	}
}

func TestGenerationFollowsSpec(t *testing.T) {
	ctx := context.Background()
	deps := newServerLikeClientset().AppsV1().Deployments("default")
	d, err := deps.Create(ctx, deployment("web", 1), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gen := d.Generation
	d.Labels = map[string]string{"only": "metadata"}
	if d, err = deps.Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if d.Generation != gen {
		t.Errorf("metadata-only update changed generation %d -> %d", gen, d.Generation)
	}
	d.Spec.Replicas = ptr.To[int32](5)
	if d, err = deps.Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if d.Generation != gen+1 {
		t.Errorf("spec update: generation = %d, want %d", d.Generation, gen+1)
	}
}

func TestGenerateName(t *testing.T) {
	ctx := context.Background()
	pods := newServerLikeClientset().CoreV1().Pods("default")
	p := pod("", "")
	p.GenerateName = "web-"
	a, err := pods.Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := pods.Create(ctx, p, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Name) <= len("web-") || a.Name[:4] != "web-" || a.Name == b.Name {
		t.Errorf("generated names %q and %q: want distinct names starting with web-", a.Name, b.Name)
	}
}

func TestFinalizersHoldDeletion(t *testing.T) {
	ctx := context.Background()
	p := pod("p", "")
	p.Finalizers = []string{"example.com/hold"}
	pods := newServerLikeClientset(p).CoreV1().Pods("default")
	if err := pods.Delete(ctx, "p", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	held, err := pods.Get(ctx, "p", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("pod with a finalizer is gone after Delete: %v", err)
	}
	if held.DeletionTimestamp == nil {
		t.Error("held pod has no deletionTimestamp")
	}
	held.Finalizers = nil
	if _, err := pods.Update(ctx, held, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Get(ctx, "p", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get after removing the last finalizer error = %v, want NotFound", err)
	}
}

func TestWatchFromListResourceVersion(t *testing.T) {
	ctx := context.Background()
	pods := newServerLikeClientset().CoreV1().Pods("default")
	list, err := pods.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Create(ctx, pod("between", ""), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := pods.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ev := nextEvent(t, w)
	if p, ok := ev.Object.(*corev1.Pod); ev.Type != watch.Added || !ok || p.Name != "between" {
		t.Errorf("first event = %s %v, want ADDED of the pod created after the list", ev.Type, ev.Object)
	}
}

func TestFieldSelectorNodeName(t *testing.T) {
	ctx := context.Background()
	pods := newServerLikeClientset(pod("on-a", "a"), pod("on-b", "b")).CoreV1().Pods("default")
	list, err := pods.List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "on-a" {
		t.Errorf("List by spec.nodeName=a = %v, want only on-a", list.Items)
	}
	w, err := pods.Watch(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=b"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := pods.Create(ctx, pod("new-a", "a"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Create(ctx, pod("new-b", "b"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A watch without a resourceVersion starts with the current state.
	for _, want := range []string{"on-b", "new-b"} {
		ev := nextEvent(t, w)
		if p, ok := ev.Object.(*corev1.Pod); !ok || p.Name != want {
			t.Fatalf("watch event about %v, want %s (pods on node a must be filtered out)", ev.Object, want)
		}
	}
}

func TestApplyStatusTouchesOnlyStatus(t *testing.T) {
	ctx := context.Background()
	deps := newServerLikeClientset(deployment("web", 2)).AppsV1().Deployments("default")
	cfg := applyappsv1.Deployment("web", "default").
		WithSpec(applyappsv1.DeploymentSpec().WithReplicas(9)).
		WithStatus(applyappsv1.DeploymentStatus().WithReadyReplicas(2))
	d, err := deps.ApplyStatus(ctx, cfg, metav1.ApplyOptions{FieldManager: "status-writer", Force: true})
	if err != nil {
		t.Fatalf("ApplyStatus: %v", err)
	}
	if d.Status.ReadyReplicas != 2 {
		t.Errorf("status.readyReplicas = %d, want 2", d.Status.ReadyReplicas)
	}
	if *d.Spec.Replicas != 2 {
		t.Errorf("ApplyStatus changed spec.replicas to %d", *d.Spec.Replicas)
	}
}

func TestActionsAreRecorded(t *testing.T) {
	cs := NewSimpleClientset(pod("p", ""))
	if _, err := cs.CoreV1().Pods("default").Get(context.Background(), "p", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	actions := cs.Actions()
	if len(actions) != 1 || !actions[0].Matches("get", "pods") || actions[0].GetNamespace() != "default" {
		t.Errorf("actions = %v, want one get of pods in default", actions)
	}
	if cs.Tracker() == nil || cs.Discovery() == nil || !cs.IsWatchListSemanticsUnSupported() {
		t.Error("Tracker, Discovery or IsWatchListSemanticsUnSupported misbehave")
	}
	if _, err := json.Marshal(actions[0]); err != nil {
		t.Errorf("action does not marshal: %v", err)
	}
}
