package testing

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	restclient "github.com/kubeclient/client-go/rest"
)

// testClientset wires a Fake to a tracker the way generated fake
// clientsets do.
type testClientset struct {
	Fake
	tracker ObjectTracker
}

var _ FakeClient = &testClientset{}

func (c *testClientset) Tracker() ObjectTracker { return c.tracker }

func newTestClientset(t testing.TB, fieldManaged bool, objects ...runtime.Object) *testClientset {
	t.Helper()
	s, d := testScheme(t)
	var o ObjectTracker
	if fieldManaged {
		o = NewServerLikeFieldManagedObjectTracker(s, d, managedfields.NewDeducedTypeConverter())
	} else {
		o = NewServerLikeObjectTracker(s, d)
	}
	for _, obj := range objects {
		must(t, o.Add(obj))
	}
	cs := &testClientset{tracker: o}
	cs.AddReactor("*", "*", ObjectReaction(o))
	cs.AddWatchReactor("*", func(action Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := o.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		return true, w, nil
	})
	return cs
}

// The helpers below issue actions exactly as gentype's fake clients do.

func createPod(c *testClientset, p *corev1.Pod, opts metav1.CreateOptions) (*corev1.Pod, error) {
	obj, err := c.Invokes(NewCreateActionWithOptions(podsGVR, p.Namespace, p, opts), &corev1.Pod{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Pod), err
}

func getPod(c *testClientset, ns, name string) (*corev1.Pod, error) {
	obj, err := c.Invokes(NewGetActionWithOptions(podsGVR, ns, name, metav1.GetOptions{}), &corev1.Pod{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Pod), err
}

func patchPod(c *testClientset, ns, name string, pt types.PatchType, data []byte, sub ...string) (*corev1.Pod, error) {
	obj, err := c.Invokes(NewPatchSubresourceActionWithOptions(podsGVR, ns, name, pt, data, metav1.PatchOptions{}, sub...), &corev1.Pod{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Pod), err
}

func applyDeployment(c *testClientset, cfg map[string]interface{}, manager string, force bool, sub ...string) (*appsv1.Deployment, error) {
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	md := cfg["metadata"].(map[string]interface{})
	opts := metav1.ApplyOptions{FieldManager: manager, Force: force}
	obj, err := c.Invokes(NewPatchSubresourceActionWithOptions(deploymentsGVR, md["namespace"].(string), md["name"].(string), types.ApplyPatchType, data, opts.ToPatchOptions(), sub...), &appsv1.Deployment{})
	if obj == nil {
		return nil, err
	}
	return obj.(*appsv1.Deployment), err
}

func TestFakeLifecycleLikeGeneratedClient(t *testing.T) {
	c := newTestClientset(t, false)
	created, err := createPod(c, pod("ns", "p"), metav1.CreateOptions{})
	must(t, err)
	if created.ResourceVersion == "" || created.UID == "" || created.Generation != 1 {
		t.Fatalf("created pod lacks server metadata: %+v", created.ObjectMeta)
	}

	got, err := getPod(c, "ns", "p")
	must(t, err)
	got.Spec.NodeName = "n1"
	obj, err := c.Invokes(NewUpdateActionWithOptions(podsGVR, "ns", got, metav1.UpdateOptions{}), &corev1.Pod{})
	must(t, err)
	updated := obj.(*corev1.Pod)
	if updated.Spec.NodeName != "n1" || updated.Generation != 2 {
		t.Errorf("update: nodeName=%q generation=%d, want n1 and 2", updated.Spec.NodeName, updated.Generation)
	}

	// The same stale object again conflicts.
	if _, err := c.Invokes(NewUpdateActionWithOptions(podsGVR, "ns", got, metav1.UpdateOptions{}), &corev1.Pod{}); !apierrors.IsConflict(err) {
		t.Errorf("stale update: error = %v, want Conflict", err)
	}

	updated.Status.Phase = corev1.PodRunning
	obj, err = c.Invokes(NewUpdateSubresourceActionWithOptions(podsGVR, "status", "ns", updated, metav1.UpdateOptions{}), &corev1.Pod{})
	must(t, err)
	if p := obj.(*corev1.Pod); p.Status.Phase != corev1.PodRunning || p.Generation != 2 {
		t.Errorf("update status: phase=%q generation=%d", p.Status.Phase, p.Generation)
	}

	obj, err = c.Invokes(NewListActionWithOptions(podsGVR, podKind, "ns", metav1.ListOptions{FieldSelector: "status.phase=Running"}), &corev1.PodList{})
	must(t, err)
	if items := obj.(*corev1.PodList).Items; len(items) != 1 {
		t.Errorf("list by status.phase: %d items, want 1", len(items))
	}

	_, err = c.Invokes(NewDeleteActionWithOptions(podsGVR, "ns", "p", metav1.DeleteOptions{}), &corev1.Pod{})
	must(t, err)
	if _, err := getPod(c, "ns", "p"); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: error = %v, want NotFound", err)
	}

	var verbs []string
	for _, a := range c.Actions() {
		verb := a.GetVerb()
		if a.GetSubresource() != "" {
			verb += "/" + a.GetSubresource()
		}
		verbs = append(verbs, verb)
	}
	want := []string{"create", "get", "update", "update", "update/status", "list", "delete", "get"}
	if !reflect.DeepEqual(verbs, want) {
		t.Errorf("recorded actions = %v, want %v", verbs, want)
	}
	c.ClearActions()
	if n := len(c.Actions()); n != 0 {
		t.Errorf("%d actions after ClearActions", n)
	}
}

func TestFakePatchTypes(t *testing.T) {
	base := pod("ns", "p")
	base.Labels = map[string]string{"keep": "1", "drop": "1"}
	base.Spec.Containers = []corev1.Container{{Name: "app", Image: "app:1"}, {Name: "side", Image: "side:1"}}
	base.Finalizers = []string{"a"}

	tests := []struct {
		name  string
		pt    types.PatchType
		patch string
		check func(t *testing.T, p *corev1.Pod)
	}{
		{"json patch", types.JSONPatchType,
			`[{"op":"replace","path":"/spec/containers/0/image","value":"app:2"},{"op":"remove","path":"/metadata/labels/drop"},{"op":"add","path":"/metadata/labels/new","value":"x"}]`,
			func(t *testing.T, p *corev1.Pod) {
				if p.Spec.Containers[0].Image != "app:2" || !reflect.DeepEqual(p.Labels, map[string]string{"keep": "1", "new": "x"}) {
					t.Errorf("image=%s labels=%v", p.Spec.Containers[0].Image, p.Labels)
				}
			}},
		{"merge patch replaces lists", types.MergePatchType,
			`{"metadata":{"labels":{"drop":null}},"spec":{"containers":[{"name":"only","image":"x"}]}}`,
			func(t *testing.T, p *corev1.Pod) {
				if len(p.Spec.Containers) != 1 || p.Spec.Containers[0].Name != "only" || p.Labels["drop"] != "" {
					t.Errorf("containers=%v labels=%v", p.Spec.Containers, p.Labels)
				}
			}},
		{"strategic merge patch merges containers by name", types.StrategicMergePatchType,
			`{"spec":{"containers":[{"name":"side","image":"side:2"},{"name":"extra","image":"e"}]},"metadata":{"finalizers":["b"]}}`,
			func(t *testing.T, p *corev1.Pod) {
				images := map[string]string{}
				for _, c := range p.Spec.Containers {
					images[c.Name] = c.Image
				}
				want := map[string]string{"app": "app:1", "side": "side:2", "extra": "e"}
				if !reflect.DeepEqual(images, want) {
					t.Errorf("containers = %v, want %v", images, want)
				}
				// apimachinery's merge (the server's) puts patch items first.
				if !reflect.DeepEqual(p.Finalizers, []string{"b", "a"}) {
					t.Errorf("finalizers = %v, want merged [b a]", p.Finalizers)
				}
			}},
		{"strategic merge patch deletes by key", types.StrategicMergePatchType,
			`{"spec":{"containers":[{"name":"app","$patch":"delete"}]},"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}`,
			func(t *testing.T, p *corev1.Pod) {
				if len(p.Spec.Containers) != 1 || p.Spec.Containers[0].Name != "side" || len(p.Finalizers) != 0 {
					t.Errorf("containers=%v finalizers=%v", p.Spec.Containers, p.Finalizers)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClientset(t, false, base.DeepCopy())
			p, err := patchPod(c, "ns", "p", tc.pt, []byte(tc.patch))
			must(t, err)
			tc.check(t, p)
			stored, err := getPod(c, "ns", "p")
			must(t, err)
			if !reflect.DeepEqual(stored, p) {
				t.Errorf("patch result differs from what is stored")
			}
		})
	}

	c := newTestClientset(t, false, base.DeepCopy())
	if _, err := patchPod(c, "ns", "missing", types.MergePatchType, []byte(`{}`)); !apierrors.IsNotFound(err) {
		t.Errorf("patch of a missing object: error = %v, want NotFound", err)
	}
	if _, err := patchPod(c, "ns", "p", types.JSONPatchType, []byte(`[{"op":"test","path":"/metadata/name","value":"other"}]`)); !apierrors.IsBadRequest(err) {
		t.Errorf("failing JSON patch test op: error = %v, want BadRequest", err)
	}
	// The fixture has no resourceVersion; after a write it has one, and a
	// patch that carries an older one conflicts.
	p, err := patchPod(c, "ns", "p", types.MergePatchType, []byte(`{"metadata":{"annotations":{"a":"b"}}}`))
	must(t, err)
	if _, err := patchPod(c, "ns", "p", types.MergePatchType, []byte(`{"metadata":{"resourceVersion":"1"}}`)); !apierrors.IsConflict(err) {
		t.Errorf("patch carrying a stale resourceVersion: error = %v, want Conflict", err)
	}
	p, err = patchPod(c, "ns", "p", types.MergePatchType, []byte(`{"status":{"phase":"Failed"},"spec":{"nodeName":"ignored"}}`), "status")
	must(t, err)
	if p.Status.Phase != corev1.PodFailed || p.Spec.NodeName != "" {
		t.Errorf("status patch: phase=%q nodeName=%q, want Failed and unchanged", p.Status.Phase, p.Spec.NodeName)
	}
}

func TestFakeApplyWithoutFieldManagement(t *testing.T) {
	c := newTestClientset(t, false)
	cfg := map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "d", "namespace": "ns", "labels": map[string]interface{}{"a": "1"}},
		"spec":     map[string]interface{}{"replicas": 2},
	}
	d, err := applyDeployment(c, cfg, "m", false)
	must(t, err)
	if *d.Spec.Replicas != 2 || d.Labels["a"] != "1" {
		t.Fatalf("apply created %+v", d)
	}
	cfg["spec"] = map[string]interface{}{"replicas": 3}
	d, err = applyDeployment(c, cfg, "m", false)
	must(t, err)
	if *d.Spec.Replicas != 3 || d.Generation != 2 {
		t.Errorf("second apply: replicas=%d generation=%d, want 3 and 2", *d.Spec.Replicas, d.Generation)
	}
}

func TestServerSideApply(t *testing.T) {
	c := newTestClientset(t, true)
	spec := func(replicas int) map[string]interface{} {
		return map[string]interface{}{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]interface{}{"name": "d", "namespace": "ns"},
			"spec":     map[string]interface{}{"replicas": replicas},
		}
	}
	d, err := applyDeployment(c, spec(1), "owner", false)
	must(t, err)
	if *d.Spec.Replicas != 1 || len(d.ManagedFields) != 1 || d.ManagedFields[0].Manager != "owner" {
		t.Fatalf("first apply: replicas=%d managedFields=%+v", *d.Spec.Replicas, d.ManagedFields)
	}

	status := map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "d", "namespace": "ns"},
		"spec":     map[string]interface{}{"replicas": 7}, // must be ignored
		"status":   map[string]interface{}{"replicas": 3},
	}
	d, err = applyDeployment(c, status, "controller", false, "status")
	must(t, err)
	if *d.Spec.Replicas != 1 || d.Status.Replicas != 3 {
		t.Errorf("status apply: spec.replicas=%d status.replicas=%d, want 1 and 3", *d.Spec.Replicas, d.Status.Replicas)
	}
	var statusEntry *metav1.ManagedFieldsEntry
	for i := range d.ManagedFields {
		if d.ManagedFields[i].Manager == "controller" {
			statusEntry = &d.ManagedFields[i]
		}
	}
	if statusEntry == nil || statusEntry.Subresource != "status" || bytes.Contains(statusEntry.FieldsV1.Raw, []byte("spec")) {
		t.Errorf("status manager entry = %+v, want subresource status owning no spec field", statusEntry)
	}
	if d.Generation != 1 {
		t.Errorf("generation after status apply = %d, want 1", d.Generation)
	}

	// Another manager setting spec.replicas conflicts with its owner...
	_, err = applyDeployment(c, spec(5), "intruder", false)
	if !apierrors.IsConflict(err) {
		t.Fatalf("conflicting apply: error = %v, want Conflict", err)
	}
	// ...unless it forces, which takes ownership.
	d, err = applyDeployment(c, spec(5), "intruder", true)
	must(t, err)
	if *d.Spec.Replicas != 5 || d.Generation != 2 {
		t.Errorf("forced apply: replicas=%d generation=%d, want 5 and 2", *d.Spec.Replicas, d.Generation)
	}
	// The old owner re-applying its value now conflicts in turn.
	if _, err := applyDeployment(c, spec(1), "owner", false); !apierrors.IsConflict(err) {
		t.Errorf("apply by the former owner: error = %v, want Conflict", err)
	}
	// Status is untouched by spec applies.
	if got, _ := c.tracker.Get(deploymentsGVR, "ns", "d"); got.(*appsv1.Deployment).Status.Replicas != 3 {
		t.Errorf("status.replicas changed by a spec apply")
	}
	if _, err := applyDeployment(c, spec(1), "", false); !apierrors.IsBadRequest(err) {
		t.Errorf("apply without a field manager: error = %v, want BadRequest", err)
	}
}

func TestFieldManagedUpdatesRecordManagers(t *testing.T) {
	c := newTestClientset(t, true)
	obj, err := c.Invokes(NewCreateActionWithOptions(configMapsGVR, "ns", configMap("ns", "c", map[string]string{"a": "1"}), metav1.CreateOptions{FieldManager: "creator"}), &corev1.ConfigMap{})
	must(t, err)
	cm := obj.(*corev1.ConfigMap)
	if len(cm.ManagedFields) != 1 || cm.ManagedFields[0].Manager != "creator" || cm.ManagedFields[0].Operation != metav1.ManagedFieldsOperationUpdate {
		t.Fatalf("managed fields after create = %+v", cm.ManagedFields)
	}
	cm.Data["b"] = "2"
	obj, err = c.Invokes(NewUpdateActionWithOptions(configMapsGVR, "ns", cm, metav1.UpdateOptions{FieldManager: "editor"}), &corev1.ConfigMap{})
	must(t, err)
	managers := map[string]bool{}
	for _, e := range obj.(*corev1.ConfigMap).ManagedFields {
		managers[e.Manager] = true
	}
	if !managers["creator"] || !managers["editor"] {
		t.Errorf("managers = %v, want creator and editor", managers)
	}
}

func TestReactorChain(t *testing.T) {
	c := newTestClientset(t, false, pod("ns", "p"))
	injected := apierrors.NewServiceUnavailable("injected")
	c.PrependReactor("create", "pods", func(Action) (bool, runtime.Object, error) {
		return true, nil, injected
	})
	// A reactor that declines passes the action on.
	var declined int
	c.PrependReactor("*", "*", func(Action) (bool, runtime.Object, error) {
		declined++
		return false, nil, nil
	})
	// Subresource-specific reactors only see their subresource.
	var statusUpdates int
	c.PrependReactor("update", "pods/status", func(a Action) (bool, runtime.Object, error) {
		statusUpdates++
		return true, a.(UpdateAction).GetObject(), nil
	})
	// Appended after ObjectReaction: never reached for what it handles.
	c.AddReactor("get", "pods", func(Action) (bool, runtime.Object, error) {
		t.Error("reactor behind ObjectReaction was called")
		return true, nil, nil
	})

	if _, err := createPod(c, pod("ns", "new"), metav1.CreateOptions{}); !errors.Is(err, injected) {
		t.Errorf("create error = %v, want the injected one", err)
	}
	p, err := getPod(c, "ns", "p")
	must(t, err)
	if _, err := c.Invokes(NewUpdateSubresourceAction(podsGVR, "status", "ns", p), &corev1.Pod{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Invokes(NewUpdateAction(podsGVR, "ns", p), &corev1.Pod{}); err != nil {
		t.Fatal(err)
	}
	if statusUpdates != 1 {
		t.Errorf("pods/status reactor called %d times, want 1", statusUpdates)
	}
	// The pods/status reactor sits before the declining one.
	if declined != 3 {
		t.Errorf("declining reactor saw %d actions, want 3", declined)
	}

	// No reactor handles it: the default object comes back.
	empty := &Fake{}
	def := &corev1.Pod{}
	if obj, err := empty.Invokes(NewGetAction(podsGVR, "ns", "x"), def); obj != def || err != nil {
		t.Errorf("Invokes without reactors = %v, %v; want the default object", obj, err)
	}
}

func TestInvokesRecordsACopy(t *testing.T) {
	c := newTestClientset(t, false)
	p := pod("ns", "p")
	_, err := createPod(c, p, metav1.CreateOptions{})
	must(t, err)
	p.Name = "mutated"
	recorded := c.Actions()[0].(CreateAction).GetObject().(*corev1.Pod)
	if recorded.Name != "p" {
		t.Errorf("recorded action changed with the caller's object: %q", recorded.Name)
	}
}

func TestDecliningReactorChangesReachLaterReactors(t *testing.T) {
	// mark renames the action's pod and declines; check sees the renamed pod.
	mark := func(a Action) {
		a.(CreateAction).GetObject().(*corev1.Pod).Name = "renamed"
	}
	seen := func(a Action) string {
		return a.(CreateAction).GetObject().(*corev1.Pod).Name
	}
	tests := []struct {
		name string
		run  func(f *Fake, action Action) (sawName string)
	}{
		{
			name: "Invokes",
			run: func(f *Fake, action Action) string {
				var got string
				f.AddReactor("*", "*", func(a Action) (bool, runtime.Object, error) { mark(a); return false, nil, nil })
				f.AddReactor("*", "*", func(a Action) (bool, runtime.Object, error) { got = seen(a); return true, nil, nil })
				if _, err := f.Invokes(action, nil); err != nil {
					t.Fatal(err)
				}
				return got
			},
		},
		{
			name: "InvokesWatch",
			run: func(f *Fake, action Action) string {
				var got string
				f.AddWatchReactor("*", func(a Action) (bool, watch.Interface, error) { mark(a); return false, nil, nil })
				f.AddWatchReactor("*", func(a Action) (bool, watch.Interface, error) {
					got = seen(a)
					return true, watch.NewFake(), nil
				})
				if _, err := f.InvokesWatch(action); err != nil {
					t.Fatal(err)
				}
				return got
			},
		},
		{
			name: "InvokesProxy",
			run: func(f *Fake, action Action) string {
				var got string
				f.AddProxyReactor("*", func(a Action) (bool, restclient.ResponseWrapper, error) { mark(a); return false, nil, nil })
				f.AddProxyReactor("*", func(a Action) (bool, restclient.ResponseWrapper, error) {
					got = seen(a)
					return true, nil, nil
				})
				f.InvokesProxy(action)
				return got
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &Fake{}
			action := NewCreateAction(podsGVR, "ns", pod("ns", "original"))
			if got := tc.run(f, action); got != "renamed" {
				t.Errorf("second reactor saw pod %q, want the first reactor's change %q", got, "renamed")
			}
			if got := seen(action); got != "original" {
				t.Errorf("caller's action changed to %q", got)
			}
			if got := seen(f.Actions()[0]); got != "original" {
				t.Errorf("recorded action changed to %q", got)
			}
		})
	}
}

func TestFakeDeleteCollection(t *testing.T) {
	a, b, other := configMap("ns", "a", nil), configMap("ns", "b", nil), configMap("ns", "other", nil)
	a.Labels = map[string]string{"x": "1"}
	b.Labels = map[string]string{"x": "1"}
	c := newTestClientset(t, false, a, b, other)
	_, err := c.Invokes(NewDeleteCollectionActionWithOptions(configMapsGVR, "ns", metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "x=1"}), &corev1.ConfigMapList{})
	must(t, err)
	obj, err := c.Invokes(NewListAction(configMapsGVR, configMapKind, "ns", metav1.ListOptions{}), &corev1.ConfigMapList{})
	must(t, err)
	if items := obj.(*corev1.ConfigMapList).Items; len(items) != 1 || items[0].Name != "other" {
		t.Errorf("left after delete-collection: %v", items)
	}
}

func TestFakeDryRun(t *testing.T) {
	c := newTestClientset(t, false)
	created, err := createPod(c, pod("ns", "p"), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	must(t, err)
	if created.Name != "p" || created.UID == "" {
		t.Errorf("dry-run create returned %+v", created.ObjectMeta)
	}
	if _, err := getPod(c, "ns", "p"); !apierrors.IsNotFound(err) {
		t.Errorf("dry-run create was persisted: %v", err)
	}
}

func TestFakeWatch(t *testing.T) {
	c := newTestClientset(t, false, pod("ns", "seed"))
	w, err := c.InvokesWatch(NewWatchActionWithOptions(podsGVR, "ns", metav1.ListOptions{Watch: true}))
	must(t, err)
	defer w.Stop()
	_, err = createPod(c, pod("ns", "new"), metav1.CreateOptions{})
	must(t, err)
	want := []eventSummary{{"ADDED", "seed"}, {"ADDED", "new"}}
	if got := nextEvents(t, w, 2); !reflect.DeepEqual(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}

	if _, err := (&Fake{}).InvokesWatch(NewWatchAction(podsGVR, "ns", nil)); err == nil {
		t.Error("InvokesWatch without reactors succeeded")
	}
	f := &Fake{}
	fw := watch.NewFake()
	f.AddWatchReactor("pods", DefaultWatchReactor(fw, nil))
	if got, err := f.InvokesWatch(NewRootWatchAction(podsGVR, metav1.ListOptions{})); got != fw || err != nil {
		t.Errorf("DefaultWatchReactor returned %v, %v", got, err)
	}
}

type cannedResponse []byte

func (r cannedResponse) DoRaw(context.Context) ([]byte, error) { return r, nil }
func (r cannedResponse) Stream(context.Context) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(r)), nil
}

var _ restclient.ResponseWrapper = cannedResponse(nil)

func TestInvokesProxy(t *testing.T) {
	f := &Fake{}
	if f.InvokesProxy(NewProxyGetAction(podsGVR, "ns", "http", "p", "80", "/", nil)) != nil {
		t.Error("InvokesProxy without reactors returned a response")
	}
	f.AddProxyReactor("services", func(Action) (bool, restclient.ResponseWrapper, error) {
		t.Error("services reactor saw a pods action")
		return true, nil, nil
	})
	f.AddProxyReactor("pods", func(Action) (bool, restclient.ResponseWrapper, error) {
		return true, nil, errors.New("failing reactors are skipped")
	})
	f.AddProxyReactor("*", func(a Action) (bool, restclient.ResponseWrapper, error) {
		return true, cannedResponse(a.(ProxyGetAction).GetPath()), nil
	})
	resp := f.InvokesProxy(NewProxyGetAction(podsGVR, "ns", "http", "p", "80", "/healthz", map[string]string{"q": "1"}))
	if resp == nil {
		t.Fatal("no response")
	}
	body, err := resp.DoRaw(context.Background())
	if err != nil || string(body) != "/healthz" {
		t.Errorf("DoRaw = %q, %v", body, err)
	}
	if n := len(f.Actions()); n != 2 {
		t.Errorf("%d actions recorded, want 2", n)
	}
}

func TestScaleSubresource(t *testing.T) {
	d := deployment("ns", "d", 2)
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Status.Replicas = 2
	c := newTestClientset(t, false)
	_, err := c.Invokes(NewCreateAction(deploymentsGVR, "ns", d), &appsv1.Deployment{})
	must(t, err)

	obj, err := c.Invokes(NewGetSubresourceActionWithOptions(deploymentsGVR, "ns", "scale", "d", metav1.GetOptions{}), &autoscalingv1.Scale{})
	must(t, err)
	scale, ok := obj.(*autoscalingv1.Scale)
	if !ok {
		t.Fatalf("get scale returned %T", obj)
	}
	if scale.Spec.Replicas != 2 || scale.Status.Replicas != 2 || scale.Status.Selector != "app=web" || scale.Name != "d" {
		t.Errorf("scale = %+v", scale)
	}

	scale.Spec.Replicas = 5
	obj, err = c.Invokes(NewUpdateSubresourceActionWithOptions(deploymentsGVR, "scale", "ns", scale, metav1.UpdateOptions{}), &autoscalingv1.Scale{})
	must(t, err)
	if got := obj.(*autoscalingv1.Scale); got.Spec.Replicas != 5 || got.ResourceVersion == scale.ResourceVersion {
		t.Errorf("updated scale = %+v", got)
	}
	stored := mustGet(t, c.tracker, deploymentsGVR, "ns", "d").(*appsv1.Deployment)
	if *stored.Spec.Replicas != 5 || stored.Generation != 2 {
		t.Errorf("deployment after scale: replicas=%d generation=%d, want 5 and 2", *stored.Spec.Replicas, stored.Generation)
	}
	// The scale read before the update is stale now.
	if _, err := c.Invokes(NewUpdateSubresourceAction(deploymentsGVR, "scale", "ns", scale), &autoscalingv1.Scale{}); !apierrors.IsConflict(err) {
		t.Errorf("stale scale update: error = %v, want Conflict", err)
	}
	obj, err = c.Invokes(NewPatchSubresourceAction(deploymentsGVR, "ns", "d", types.MergePatchType, []byte(`{"spec":{"replicas":1}}`), "scale"), &autoscalingv1.Scale{})
	must(t, err)
	if got := obj.(*autoscalingv1.Scale); got.Spec.Replicas != 1 {
		t.Errorf("patched scale replicas = %d, want 1", got.Spec.Replicas)
	}
}

func TestPodSubresources(t *testing.T) {
	c := newTestClientset(t, false, pod("ns", "p"), pod("ns", "q"))
	// Sent the way the generated Evict does: no name in the action.
	evict := CreateActionImpl{ActionImpl: ActionImpl{Verb: "create", Namespace: "ns", Resource: podsGVR, Subresource: "eviction"}}
	evict.Object = &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
	_, err := c.Invokes(evict, evict.Object)
	must(t, err)
	if _, err := c.tracker.Get(podsGVR, "ns", "p"); !apierrors.IsNotFound(err) {
		t.Errorf("evicted pod still there: %v", err)
	}
	if _, err := c.Invokes(evict, evict.Object); !apierrors.IsNotFound(err) {
		t.Errorf("evicting a missing pod: error = %v, want NotFound", err)
	}

	binding := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns"}, Target: corev1.ObjectReference{Kind: "Node", Name: "n1"}}
	_, err = c.Invokes(NewCreateSubresourceActionWithOptions(podsGVR, "q", "binding", "ns", binding, metav1.CreateOptions{}), &corev1.Binding{})
	must(t, err)
	if n := mustGet(t, c.tracker, podsGVR, "ns", "q").(*corev1.Pod).Spec.NodeName; n != "n1" {
		t.Errorf("nodeName after binding = %q, want n1", n)
	}
	if _, err := c.Invokes(NewCreateSubresourceAction(podsGVR, "q", "binding", "ns", binding), &corev1.Binding{}); !apierrors.IsConflict(err) {
		t.Errorf("binding an assigned pod: error = %v, want Conflict", err)
	}

	// Unmodelled subresources echo objects of another type and change nothing.
	other := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns"}}
	obj, err := c.Invokes(NewCreateSubresourceAction(podsGVR, "q", "custom", "ns", other), &corev1.ConfigMap{})
	must(t, err)
	if obj != other && !reflect.DeepEqual(obj, other) {
		t.Errorf("custom subresource returned %#v", obj)
	}
	if _, ok := mustGet(t, c.tracker, podsGVR, "ns", "q").(*corev1.Pod); !ok {
		t.Error("the pod was replaced by the subresource object")
	}
}

func TestFieldManagedStatusUpdate(t *testing.T) {
	c := newTestClientset(t, true)
	obj, err := c.Invokes(NewCreateActionWithOptions(deploymentsGVR, "ns", deployment("ns", "d", 1), metav1.CreateOptions{FieldManager: "creator"}), &appsv1.Deployment{})
	must(t, err)
	d := obj.(*appsv1.Deployment)
	d.Status.ReadyReplicas = 1
	d.Spec.Replicas = ptr.To[int32](9) // ignored by a status update
	obj, err = c.Invokes(NewUpdateSubresourceActionWithOptions(deploymentsGVR, "status", "ns", d, metav1.UpdateOptions{FieldManager: "kubelet"}), &appsv1.Deployment{})
	must(t, err)
	got := obj.(*appsv1.Deployment)
	if got.Status.ReadyReplicas != 1 || *got.Spec.Replicas != 1 || got.Generation != 1 {
		t.Errorf("status update: ready=%d replicas=%d generation=%d", got.Status.ReadyReplicas, *got.Spec.Replicas, got.Generation)
	}
	var found bool
	for _, e := range got.ManagedFields {
		if e.Manager == "kubelet" {
			found = e.Subresource == "status"
		}
	}
	if !found {
		t.Errorf("no status entry for kubelet in %+v", got.ManagedFields)
	}
}

// TestReactorsAreSerialized relies on -race: the reactor's counter has no
// lock of its own, as is common in tests, and stays correct because the
// Fake runs one reactor at a time.
func TestReactorsAreSerialized(t *testing.T) {
	f := &Fake{}
	calls := 0
	f.AddReactor("get", "pods", func(Action) (bool, runtime.Object, error) {
		calls++
		return true, nil, nil
	})
	const goroutines, each = 8, 50
	done := make(chan struct{})
	for g := 0; g < goroutines; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < each; i++ {
				_, _ = f.Invokes(NewGetAction(podsGVR, "ns", "p"), nil)
			}
		}()
	}
	for g := 0; g < goroutines; g++ {
		<-done
	}
	if calls != goroutines*each || len(f.Actions()) != goroutines*each {
		t.Errorf("calls=%d actions=%d, want %d", calls, len(f.Actions()), goroutines*each)
	}
}
