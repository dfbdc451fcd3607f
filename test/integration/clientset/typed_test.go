package clientset

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	corev1ac "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/test/integration/framework"
)

func TestTypedConfigMapCRUD(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) { testTypedConfigMapCRUD(t, contentType) })
	}
}

func testTypedConfigMapCRUD(t *testing.T, contentType string) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	configMaps := newClientsetFor(t, contentType).CoreV1().ConfigMaps(ns)

	created, err := configMaps.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "typed", Labels: map[string]string{"k": "v"}},
		Data:       map[string]string{"a": "1"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if created.UID == "" || created.Data["a"] != "1" {
		t.Fatalf("Create returned %+v", created)
	}
	got, err := configMaps.Get(ctx, "typed", metav1.GetOptions{})
	if err != nil || got.UID != created.UID {
		t.Fatalf("Get: %v (uid %q, want %q)", err, got.GetUID(), created.UID)
	}
	got.Data["a"] = "2"
	updated, err := configMaps.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil || updated.Data["a"] != "2" || updated.ResourceVersion == created.ResourceVersion {
		t.Fatalf("Update: %v, data %v", err, updated.Data)
	}
	list, err := configMaps.List(ctx, metav1.ListOptions{LabelSelector: "k=v"})
	if err != nil || len(list.Items) != 1 || list.Items[0].Name != "typed" {
		t.Fatalf("List: %v, %d items", err, len(list.Items))
	}
	if _, err := configMaps.Update(ctx, created, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("Update with stale resourceVersion: %v, want Conflict", err)
	}
	if err := configMaps.Delete(ctx, "typed", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &created.UID}}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := configMaps.Get(ctx, "typed", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get after Delete: %v, want NotFound", err)
	}
}

func deployment(name string, replicas int32, containers ...string) *appsv1.Deployment {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
			},
		},
	}
	for _, c := range containers {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{Name: c, Image: c + ":1"})
	}
	return d
}

func TestStatusSubresource(t *testing.T) {
	for _, contentType := range framework.ContentTypes {
		t.Run(contentType, func(t *testing.T) { testStatusSubresource(t, contentType) })
	}
}

func testStatusSubresource(t *testing.T, contentType string) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	deployments := newClientsetFor(t, contentType).AppsV1().Deployments(ns)
	d, err := deployments.Create(ctx, deployment("web", 2, "nginx"), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}

	// UpdateStatus writes status and ignores spec changes.
	d.Status.ObservedGeneration = d.Generation
	d.Status.Replicas = 2
	d.Status.ReadyReplicas = 1
	d.Spec.Replicas = ptr.To[int32](7)
	afterStatus, err := deployments.UpdateStatus(ctx, d, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	if afterStatus.Status.ReadyReplicas != 1 || *afterStatus.Spec.Replicas != 2 {
		t.Errorf("after UpdateStatus: readyReplicas %d spec.replicas %d, want 1 and 2", afterStatus.Status.ReadyReplicas, *afterStatus.Spec.Replicas)
	}

	// Update writes spec and ignores status changes.
	afterStatus.Spec.Replicas = ptr.To[int32](3)
	afterStatus.Status.ReadyReplicas = 9
	afterUpdate, err := deployments.Update(ctx, afterStatus, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if *afterUpdate.Spec.Replicas != 3 || afterUpdate.Status.ReadyReplicas != 1 {
		t.Errorf("after Update: spec.replicas %d readyReplicas %d, want 3 and 1", *afterUpdate.Spec.Replicas, afterUpdate.Status.ReadyReplicas)
	}

	// Patching the status subresource.
	patched, err := deployments.Patch(ctx, "web", types.MergePatchType, []byte(`{"status":{"availableReplicas":1}}`), metav1.PatchOptions{}, "status")
	if err != nil || patched.Status.AvailableReplicas != 1 {
		t.Errorf("status patch: %v, availableReplicas %d", err, patched.Status.AvailableReplicas)
	}

	// Scale subresource.
	scale, err := deployments.GetScale(ctx, "web", metav1.GetOptions{})
	if err != nil || scale.Spec.Replicas != 3 {
		t.Fatalf("GetScale: %v, %+v", err, scale)
	}
	scale.Spec.Replicas = 5
	if _, err := deployments.UpdateScale(ctx, "web", scale, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("UpdateScale: %v", err)
	}
	if d, err := deployments.Get(ctx, "web", metav1.GetOptions{}); err != nil || *d.Spec.Replicas != 5 {
		t.Errorf("after UpdateScale: %v, replicas %v", err, d.Spec.Replicas)
	}
}

func containerNames(d *appsv1.Deployment) []string {
	var names []string
	for _, c := range d.Spec.Template.Spec.Containers {
		names = append(names, c.Name+"="+c.Image)
	}
	return names
}

func TestPatchTypes(t *testing.T) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	deployments := newClientset(t).AppsV1().Deployments(ns)

	tests := []struct {
		name       string
		patchType  types.PatchType
		patch      string
		containers []string
		replicas   int32
	}{{
		// A strategic merge patch merges the containers list by name.
		name:       "strategic",
		patchType:  types.StrategicMergePatchType,
		patch:      `{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"sidecar","image":"sidecar:2"}]}}}}`,
		containers: []string{"app=app:1", "sidecar=sidecar:2"},
		replicas:   4,
	}, {
		// A JSON merge patch replaces the list.
		name:       "merge",
		patchType:  types.MergePatchType,
		patch:      `{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"sidecar","image":"sidecar:2"}]}}}}`,
		containers: []string{"sidecar=sidecar:2"},
		replicas:   4,
	}, {
		name:       "json",
		patchType:  types.JSONPatchType,
		patch:      `[{"op":"replace","path":"/spec/template/spec/containers/1/image","value":"sidecar:3"},{"op":"replace","path":"/spec/replicas","value":6}]`,
		containers: []string{"app=app:1", "sidecar=sidecar:3"},
		replicas:   6,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "patch-" + tt.name
			if _, err := deployments.Create(ctx, deployment(name, 1, "app", "sidecar"), metav1.CreateOptions{}); err != nil {
				t.Fatalf("Create: %v", err)
			}
			patched, err := deployments.Patch(ctx, name, tt.patchType, []byte(tt.patch), metav1.PatchOptions{})
			if err != nil {
				t.Fatalf("Patch: %v", err)
			}
			if got := containerNames(patched); !slices.Equal(got, tt.containers) || *patched.Spec.Replicas != tt.replicas {
				t.Errorf("after patch: containers %v replicas %d, want %v %d", got, *patched.Spec.Replicas, tt.containers, tt.replicas)
			}
		})
	}

	// A JSON patch whose test op fails is rejected and changes nothing.
	if _, err := deployments.Patch(ctx, "patch-json", types.JSONPatchType,
		[]byte(`[{"op":"test","path":"/spec/replicas","value":99},{"op":"replace","path":"/spec/replicas","value":1}]`),
		metav1.PatchOptions{}); err == nil {
		t.Error("JSON patch with a failing test op succeeded")
	}
}

func TestServerSideApply(t *testing.T) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	configMaps := newClientset(t).CoreV1().ConfigMaps(ns)

	first, err := configMaps.Apply(ctx, corev1ac.ConfigMap("applied", ns).WithData(map[string]string{"owner": "alpha", "a": "1"}),
		metav1.ApplyOptions{FieldManager: "alpha"})
	if err != nil {
		t.Fatalf("Apply (create): %v", err)
	}
	if first.Data["owner"] != "alpha" || !hasManager(first, "alpha") {
		t.Fatalf("Apply created %v managed by %v", first.Data, managers(first))
	}

	// A second manager setting the same field conflicts.
	_, err = configMaps.Apply(ctx, corev1ac.ConfigMap("applied", ns).WithData(map[string]string{"owner": "beta"}),
		metav1.ApplyOptions{FieldManager: "beta"})
	if !apierrors.IsConflict(err) {
		t.Fatalf("conflicting Apply: %v, want Conflict", err)
	}
	if s, ok := err.(apierrors.APIStatus); !ok || s.Status().Details == nil || len(s.Status().Details.Causes) == 0 {
		t.Errorf("conflict error %v lacks field causes", err)
	}

	// A field nobody else owns applies cleanly alongside.
	both, err := configMaps.Apply(ctx, corev1ac.ConfigMap("applied", ns).WithData(map[string]string{"b": "2"}),
		metav1.ApplyOptions{FieldManager: "beta"})
	if err != nil || both.Data["a"] != "1" || both.Data["b"] != "2" || both.Data["owner"] != "alpha" {
		t.Fatalf("non-conflicting Apply: %v, data %v", err, both.Data)
	}

	// Force takes the field over.
	forced, err := configMaps.Apply(ctx, corev1ac.ConfigMap("applied", ns).WithData(map[string]string{"owner": "beta", "b": "2"}),
		metav1.ApplyOptions{FieldManager: "beta", Force: true})
	if err != nil {
		t.Fatalf("forced Apply: %v", err)
	}
	if forced.Data["owner"] != "beta" {
		t.Errorf("forced Apply left owner=%q", forced.Data["owner"])
	}
	if !hasManager(forced, "beta") {
		t.Errorf("managers after force: %v", managers(forced))
	}
	// Apply patches are also accepted through Patch with the apply type.
	body, _ := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "applied"},
		"data":     map[string]string{"c": "3"},
	})
	viaPatch, err := configMaps.Patch(ctx, "applied", types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "gamma"})
	if err != nil || viaPatch.Data["c"] != "3" || !hasManager(viaPatch, "gamma") {
		t.Errorf("apply through Patch: %v, data %v, managers %v", err, viaPatch.Data, managers(viaPatch))
	}
}

func managers(obj metav1.Object) []string {
	var out []string
	for _, m := range obj.GetManagedFields() {
		out = append(out, m.Manager+"/"+string(m.Operation))
	}
	return out
}

func hasManager(obj metav1.Object, name string) bool {
	return slices.Contains(managers(obj), name+"/"+string(metav1.ManagedFieldsOperationApply))
}

func TestDeleteCollection(t *testing.T) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	configMaps := newClientset(t).CoreV1().ConfigMaps(ns)
	for i, doomed := range []bool{true, true, true, false, false, true} {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm-" + string(rune('a'+i)), Labels: map[string]string{"doomed": "no"}}}
		if doomed {
			cm.Labels["doomed"] = "yes"
		}
		if _, err := configMaps.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatalf("Create: %v", err)
		}
	}
	if err := configMaps.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "doomed=yes"}); err != nil {
		t.Fatalf("DeleteCollection: %v", err)
	}
	left, err := configMaps.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var names []string
	for _, cm := range left.Items {
		names = append(names, cm.Name)
	}
	if want := []string{"cm-d", "cm-e"}; !slices.Equal(names, want) {
		t.Errorf("after DeleteCollection: %v, want %v", names, want)
	}
}

func TestDryRun(t *testing.T) {
	ctx := context.Background()
	ns := controlPlane.Namespace(t)
	configMaps := newClientset(t).CoreV1().ConfigMaps(ns)
	dryRun := []string{metav1.DryRunAll}

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dry"}, Data: map[string]string{"a": "1"}}
	out, err := configMaps.Create(ctx, cm, metav1.CreateOptions{DryRun: dryRun})
	if err != nil {
		t.Fatalf("dry-run Create: %v", err)
	}
	if out.Name != "dry" || out.Data["a"] != "1" || out.CreationTimestamp.IsZero() {
		t.Errorf("dry-run Create returned %+v, want a defaulted object", out.ObjectMeta)
	}
	if _, err := configMaps.Get(ctx, "dry", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get after dry-run Create: %v, want NotFound", err)
	}

	real, err := configMaps.Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	real.Data["a"] = "2"
	if _, err := configMaps.Update(ctx, real, metav1.UpdateOptions{DryRun: dryRun}); err != nil {
		t.Fatalf("dry-run Update: %v", err)
	}
	if err := configMaps.Delete(ctx, "dry", metav1.DeleteOptions{DryRun: dryRun}); err != nil {
		t.Fatalf("dry-run Delete: %v", err)
	}
	after, err := configMaps.Get(ctx, "dry", metav1.GetOptions{})
	if err != nil || after.Data["a"] != "1" {
		t.Errorf("after dry-run Update and Delete: %v, data %v; want the original object", err, after.Data)
	}
}
