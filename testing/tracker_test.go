package testing

import (
	"reflect"
	"regexp"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

func TestResourceVersionIncreasesOnEveryWrite(t *testing.T) {
	tr := newTestTracker(t)
	var last int64
	steps := []struct {
		name  string
		write func() runtime.Object
	}{
		{"create pod", func() runtime.Object {
			must(t, tr.Create(podsGVR, pod("ns", "a"), "ns"))
			return mustGet(t, tr, podsGVR, "ns", "a")
		}},
		{"create configmap (other resource, same counter)", func() runtime.Object {
			must(t, tr.Create(configMapsGVR, configMap("ns", "c", nil), "ns"))
			return mustGet(t, tr, configMapsGVR, "ns", "c")
		}},
		{"update pod", func() runtime.Object {
			p := mustGet(t, tr, podsGVR, "ns", "a").(*corev1.Pod)
			p.Labels = map[string]string{"x": "y"}
			must(t, tr.Update(podsGVR, p, "ns"))
			return mustGet(t, tr, podsGVR, "ns", "a")
		}},
		{"create deployment", func() runtime.Object {
			must(t, tr.Create(deploymentsGVR, deployment("ns", "d", 1), "ns"))
			return mustGet(t, tr, deploymentsGVR, "ns", "d")
		}},
	}
	for _, s := range steps {
		rv := rvOf(t, s.write())
		if rv <= last {
			t.Fatalf("%s: resourceVersion %d is not above the previous %d", s.name, rv, last)
		}
		last = rv
	}
	list, err := tr.List(podsGVR, podKind, "")
	must(t, err)
	if got := rvOf(t, list); got != last {
		t.Errorf("list resourceVersion = %d, want the latest revision %d", got, last)
	}
}

func TestUpdateResourceVersionPreconditions(t *testing.T) {
	tests := []struct {
		name         string
		rv           func(current string) string
		wantConflict bool
	}{
		{"current resourceVersion", func(cur string) string { return cur }, false},
		{"empty resourceVersion is unconditional", func(string) string { return "" }, false},
		{"stale resourceVersion", func(string) string { return "1" }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestTracker(t)
			must(t, tr.Create(configMapsGVR, configMap("ns", "c", map[string]string{"k": "v1"}), "ns"))
			cur := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
			// Make the stored version move past the one the test may send.
			cur.Data["k"] = "v2"
			must(t, tr.Update(configMapsGVR, cur, "ns"))
			cur = mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)

			next := cur.DeepCopy()
			next.Data["k"] = "v3"
			next.ResourceVersion = tc.rv(cur.ResourceVersion)
			err := tr.Update(configMapsGVR, next, "ns")
			if got := apierrors.IsConflict(err); got != tc.wantConflict {
				t.Fatalf("Update error = %v, want conflict %v", err, tc.wantConflict)
			}
			stored := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
			want := "v3"
			if tc.wantConflict {
				want = "v2"
			}
			if stored.Data["k"] != want {
				t.Errorf("stored data = %q, want %q", stored.Data["k"], want)
			}
		})
	}
}

func TestGeneration(t *testing.T) {
	tests := []struct {
		name    string
		status  bool // send as a status subresource write
		mutate  func(d *appsv1.Deployment)
		wantGen int64
	}{
		{"spec change", false, func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](5) }, 2},
		{"metadata-only change", false, func(d *appsv1.Deployment) { d.Labels = map[string]string{"a": "b"} }, 1},
		{"status change through update", false, func(d *appsv1.Deployment) { d.Status.Replicas = 3 }, 1},
		{"status subresource", true, func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 2 }, 1},
		{"client-sent generation is ignored", false, func(d *appsv1.Deployment) { d.Generation = 42 }, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestTracker(t)
			created, err := tr.write(deploymentsGVR, "", deployment("ns", "d", 1), "ns", writeCreate, writeOptions{})
			must(t, err)
			if g := created.(*appsv1.Deployment).Generation; g != 1 {
				t.Fatalf("generation after create = %d, want 1", g)
			}
			d := created.(*appsv1.Deployment).DeepCopy()
			tc.mutate(d)
			sub := ""
			if tc.status {
				sub = "status"
			}
			updated, err := tr.write(deploymentsGVR, sub, d, "ns", writeUpdate, writeOptions{})
			must(t, err)
			if g := updated.(*appsv1.Deployment).Generation; g != tc.wantGen {
				t.Errorf("generation = %d, want %d", g, tc.wantGen)
			}
		})
	}
}

func TestStatusSubresourceOnlyChangesStatus(t *testing.T) {
	tr := newTestTracker(t)
	must(t, tr.Create(deploymentsGVR, deployment("ns", "d", 1), "ns"))
	d := mustGet(t, tr, deploymentsGVR, "ns", "d").(*appsv1.Deployment)
	d.Spec.Replicas = ptr.To[int32](9)
	d.Labels = map[string]string{"ignored": "true"}
	d.Status.Replicas = 4
	_, err := tr.write(deploymentsGVR, "status", d, "ns", writeUpdate, writeOptions{})
	must(t, err)
	got := mustGet(t, tr, deploymentsGVR, "ns", "d").(*appsv1.Deployment)
	if *got.Spec.Replicas != 1 || got.Labels != nil {
		t.Errorf("status write changed spec or metadata: replicas=%d labels=%v", *got.Spec.Replicas, got.Labels)
	}
	if got.Status.Replicas != 4 {
		t.Errorf("status.replicas = %d, want 4", got.Status.Replicas)
	}
}

func TestCreateFillsServerMetadata(t *testing.T) {
	tr := newTestTracker(t)
	p := pod("ns", "")
	p.GenerateName = "web-"
	created, err := tr.write(podsGVR, "", p, "ns", writeCreate, writeOptions{})
	must(t, err)
	m, _ := meta.Accessor(created)
	if !regexp.MustCompile(`^web-[a-z0-9]{5}$`).MatchString(m.GetName()) {
		t.Errorf("generated name %q does not look like web-xxxxx", m.GetName())
	}
	if ts := m.GetCreationTimestamp(); m.GetUID() == "" || ts.IsZero() {
		t.Errorf("uid %q / creationTimestamp %v not set", m.GetUID(), m.GetCreationTimestamp())
	}
	if p.Name != "" || p.ResourceVersion != "" {
		t.Errorf("Create modified the caller's object: %+v", p.ObjectMeta)
	}
	if _, err := tr.Get(podsGVR, "ns", m.GetName()); err != nil {
		t.Errorf("generated object not retrievable: %v", err)
	}

	must(t, tr.Create(podsGVR, pod("ns", "fixed"), "ns"))
	if err := tr.Create(podsGVR, pod("ns", "fixed"), "ns"); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create error = %v, want AlreadyExists", err)
	}
	if err := tr.Create(podsGVR, pod("other", "x"), "ns"); !apierrors.IsBadRequest(err) {
		t.Errorf("namespace mismatch error = %v, want BadRequest", err)
	}
}

func TestUpdateKeepsServerOwnedMetadata(t *testing.T) {
	tr := newTestTracker(t)
	must(t, tr.Create(podsGVR, pod("ns", "p"), "ns"))
	orig := mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
	replacement := pod("ns", "p") // no uid, no creationTimestamp, no resourceVersion
	replacement.Spec.NodeName = "n1"
	must(t, tr.Update(podsGVR, replacement, "ns"))
	got := mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
	if got.UID != orig.UID || !got.CreationTimestamp.Equal(&orig.CreationTimestamp) {
		t.Errorf("update lost uid/creationTimestamp: %v/%v, want %v/%v", got.UID, got.CreationTimestamp, orig.UID, orig.CreationTimestamp)
	}
	wrongUID := got.DeepCopy()
	wrongUID.UID = "other"
	if err := tr.Update(podsGVR, wrongUID, "ns"); !apierrors.IsConflict(err) {
		t.Errorf("update with another uid: error = %v, want Conflict", err)
	}
	if err := tr.Update(podsGVR, pod("ns", "missing"), "ns"); !apierrors.IsNotFound(err) {
		t.Errorf("update of a missing object: error = %v, want NotFound", err)
	}
}

func TestNoOpUpdateDoesNotWrite(t *testing.T) {
	tr := newTestTracker(t)
	must(t, tr.Create(podsGVR, pod("ns", "p"), "ns"))
	before := mustGet(t, tr, podsGVR, "ns", "p")
	must(t, tr.Update(podsGVR, before, "ns"))
	after := mustGet(t, tr, podsGVR, "ns", "p")
	if rvOf(t, before) != rvOf(t, after) {
		t.Errorf("identical update bumped resourceVersion %d -> %d", rvOf(t, before), rvOf(t, after))
	}
}

func TestDeleteWithFinalizers(t *testing.T) {
	tr := newTestTracker(t)
	cm := configMap("ns", "c", nil)
	cm.Finalizers = []string{"example.com/a", "example.com/b"}
	must(t, tr.Create(configMapsGVR, cm, "ns"))
	w, err := tr.Watch(configMapsGVR, "ns")
	must(t, err)
	defer w.Stop()

	must(t, tr.Delete(configMapsGVR, "ns", "c"))
	got := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
	if got.DeletionTimestamp == nil || got.DeletionGracePeriodSeconds == nil || *got.DeletionGracePeriodSeconds != 0 {
		t.Fatalf("after delete: deletionTimestamp=%v grace=%v, want set and 0", got.DeletionTimestamp, got.DeletionGracePeriodSeconds)
	}
	// Deleting again changes nothing.
	must(t, tr.Delete(configMapsGVR, "ns", "c"))

	got.Finalizers = []string{"example.com/b"}
	got.DeletionTimestamp = nil // clients cannot clear it
	must(t, tr.Update(configMapsGVR, got, "ns"))
	still := mustGet(t, tr, configMapsGVR, "ns", "c").(*corev1.ConfigMap)
	if still.DeletionTimestamp == nil {
		t.Fatal("update cleared deletionTimestamp")
	}
	still.Finalizers = nil
	must(t, tr.Update(configMapsGVR, still, "ns"))
	if _, err := tr.Get(configMapsGVR, "ns", "c"); !apierrors.IsNotFound(err) {
		t.Fatalf("after removing the last finalizer: Get error = %v, want NotFound", err)
	}
	want := []eventSummary{{"MODIFIED", "c"}, {"MODIFIED", "c"}, {"DELETED", "c"}}
	if got := nextEvents(t, w, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
}

func TestDeletePreconditions(t *testing.T) {
	tests := []struct {
		name         string
		pre          func(p *corev1.Pod) *metav1.Preconditions
		wantConflict bool
	}{
		{"none", func(*corev1.Pod) *metav1.Preconditions { return nil }, false},
		{"matching uid", func(p *corev1.Pod) *metav1.Preconditions { return &metav1.Preconditions{UID: &p.UID} }, false},
		{"other uid", func(*corev1.Pod) *metav1.Preconditions { return &metav1.Preconditions{UID: ptr.To(types.UID("x"))} }, true},
		{"matching resourceVersion", func(p *corev1.Pod) *metav1.Preconditions {
			return &metav1.Preconditions{ResourceVersion: &p.ResourceVersion}
		}, false},
		{"stale resourceVersion", func(*corev1.Pod) *metav1.Preconditions {
			return &metav1.Preconditions{ResourceVersion: ptr.To("1")}
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestTracker(t)
			must(t, tr.Create(podsGVR, pod("ns", "p"), "ns"))
			p := mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
			err := tr.Delete(podsGVR, "ns", "p", metav1.DeleteOptions{Preconditions: tc.pre(p)})
			if apierrors.IsConflict(err) != tc.wantConflict {
				t.Fatalf("Delete error = %v, want conflict %v", err, tc.wantConflict)
			}
			_, getErr := tr.Get(podsGVR, "ns", "p")
			if stillThere := getErr == nil; stillThere != tc.wantConflict {
				t.Errorf("object present after delete = %v, want %v", stillThere, tc.wantConflict)
			}
		})
	}
	tr := newTestTracker(t)
	if err := tr.Delete(podsGVR, "ns", "missing"); !apierrors.IsNotFound(err) {
		t.Errorf("delete of a missing object: error = %v, want NotFound", err)
	}
}

func TestListSelectors(t *testing.T) {
	tr := newTestTracker(t)
	mk := func(ns, name, node string, phase corev1.PodPhase, labels map[string]string) {
		p := pod(ns, name)
		p.Spec.NodeName = node
		p.Status.Phase = phase
		p.Labels = labels
		must(t, tr.Create(podsGVR, p, ns))
	}
	mk("a", "p1", "n1", corev1.PodRunning, map[string]string{"app": "web"})
	mk("a", "p2", "n2", corev1.PodPending, map[string]string{"app": "db"})
	mk("b", "p3", "n1", corev1.PodRunning, map[string]string{"app": "web", "tier": "x"})
	mk("b", "p4", "", corev1.PodSucceeded, nil)

	tests := []struct {
		name string
		ns   string
		opts metav1.ListOptions
		want []string
	}{
		{"everything", "", metav1.ListOptions{}, []string{"p1", "p2", "p3", "p4"}},
		{"namespace", "b", metav1.ListOptions{}, []string{"p3", "p4"}},
		{"spec.nodeName", "", metav1.ListOptions{FieldSelector: "spec.nodeName=n1"}, []string{"p1", "p3"}},
		{"unscheduled", "", metav1.ListOptions{FieldSelector: "spec.nodeName="}, []string{"p4"}},
		{"status.phase not", "", metav1.ListOptions{FieldSelector: "status.phase!=Running"}, []string{"p2", "p4"}},
		{"metadata.name", "", metav1.ListOptions{FieldSelector: "metadata.name=p2"}, []string{"p2"}},
		{"metadata.namespace", "", metav1.ListOptions{FieldSelector: "metadata.namespace=a"}, []string{"p1", "p2"}},
		{"two fields", "", metav1.ListOptions{FieldSelector: "spec.nodeName=n1,metadata.namespace=b"}, []string{"p3"}},
		{"label equality", "", metav1.ListOptions{LabelSelector: "app=web"}, []string{"p1", "p3"}},
		{"label set", "", metav1.ListOptions{LabelSelector: "app in (db, web),!tier"}, []string{"p1", "p2"}},
		{"labels and fields", "", metav1.ListOptions{LabelSelector: "app=web", FieldSelector: "metadata.namespace=a"}, []string{"p1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj, err := tr.List(podsGVR, podKind, tc.ns, tc.opts)
			must(t, err)
			list := obj.(*corev1.PodList)
			var got []string
			for _, p := range list.Items {
				got = append(got, p.Name)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("names = %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := tr.List(podsGVR, podKind, "", metav1.ListOptions{LabelSelector: "a in ("}); !apierrors.IsBadRequest(err) {
		t.Errorf("bad label selector: error = %v, want BadRequest", err)
	}
}

func TestListPagination(t *testing.T) {
	tr := newTestTracker(t)
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		must(t, tr.Create(configMapsGVR, configMap("ns", n, nil), "ns"))
	}
	var names []string
	opts := metav1.ListOptions{Limit: 2}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		obj, err := tr.List(configMapsGVR, configMapKind, "ns", opts)
		must(t, err)
		list := obj.(*corev1.ConfigMapList)
		for _, c := range list.Items {
			names = append(names, c.Name)
		}
		if list.Continue == "" {
			break
		}
		opts.Continue = list.Continue
	}
	if want := []string{"a", "b", "c", "d", "e"}; !reflect.DeepEqual(names, want) {
		t.Errorf("paged names = %v, want %v", names, want)
	}
}

func TestAddFixtures(t *testing.T) {
	tr := newTestTracker(t)
	fixture := pod("ns", "seed")
	fixture.ResourceVersion = "7"
	must(t, tr.Add(fixture))
	got := mustGet(t, tr, podsGVR, "ns", "seed")
	if !reflect.DeepEqual(got, fixture) {
		t.Errorf("Get after Add differs from the fixture:\n got %#v\nwant %#v", got, fixture)
	}
	// The fixture's resourceVersion is current, so updating with it works,
	// and later versions are above it.
	upd := got.(*corev1.Pod).DeepCopy()
	upd.Spec.NodeName = "n"
	must(t, tr.Update(podsGVR, upd, "ns"))
	if rv := rvOf(t, mustGet(t, tr, podsGVR, "ns", "seed")); rv <= 7 {
		t.Errorf("resourceVersion after update = %d, want above the fixture's 7", rv)
	}

	noRV := configMap("ns", "plain", nil)
	must(t, tr.Add(noRV))
	if err := tr.Add(noRV); !apierrors.IsAlreadyExists(err) {
		t.Errorf("adding twice: error = %v, want AlreadyExists", err)
	}
	stale := noRV.DeepCopy()
	stale.ResourceVersion = "123"
	stale.Data = map[string]string{"k": "v"}
	must(t, tr.Update(configMapsGVR, stale, "ns")) // a fixture without version accepts any

	must(t, tr.Add(&corev1.PodList{Items: []corev1.Pod{*pod("l", "one"), *pod("l", "two")}}))
	list, err := tr.List(podsGVR, podKind, "l")
	must(t, err)
	if n := len(list.(*corev1.PodList).Items); n != 2 {
		t.Errorf("pods added from a list = %d, want 2", n)
	}
}

func TestUnstructuredObjects(t *testing.T) {
	tr := newTestTracker(t)
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	widgetKind := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(widgetKind)
	u.SetNamespace("ns")
	u.SetName("w1")
	must(t, unstructured.SetNestedField(u.Object, "blue", "spec", "color"))
	must(t, tr.Add(u))

	u2 := u.DeepCopy()
	u2.SetName("w2")
	must(t, unstructured.SetNestedField(u2.Object, "red", "spec", "color"))
	must(t, tr.Create(widgets, u2, "ns"))

	obj, err := tr.List(widgets, widgetKind, "ns", metav1.ListOptions{FieldSelector: "spec.color=red"})
	must(t, err)
	list, ok := obj.(*unstructured.UnstructuredList)
	if !ok {
		t.Fatalf("list of an unknown kind is %T, want *unstructured.UnstructuredList", obj)
	}
	if len(list.Items) != 1 || list.Items[0].GetName() != "w2" {
		t.Errorf("items = %v, want only w2", list.Items)
	}
	w2 := mustGet(t, tr, widgets, "ns", "w2").(*unstructured.Unstructured)
	if w2.GetGeneration() != 1 {
		t.Errorf("generation = %d, want 1", w2.GetGeneration())
	}
	must(t, unstructured.SetNestedField(w2.Object, "green", "spec", "color"))
	must(t, tr.Update(widgets, w2, "ns"))
	if g := mustGet(t, tr, widgets, "ns", "w2").(*unstructured.Unstructured).GetGeneration(); g != 2 {
		t.Errorf("generation after spec change = %d, want 2", g)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpdateAcceptsMetadataMissingFromFixtures(t *testing.T) {
	tr := newTestTracker(t)
	must(t, tr.Add(pod("ns", "p")))
	p := pod("ns", "p")
	p.UID = "given"
	now := metav1.Now()
	p.DeletionTimestamp = &now // how tests have long simulated termination
	p.Finalizers = []string{"keep"}
	must(t, tr.Update(podsGVR, p, "ns"))
	got := mustGet(t, tr, podsGVR, "ns", "p").(*corev1.Pod)
	if got.UID != "given" || got.DeletionTimestamp == nil {
		t.Errorf("uid=%q deletionTimestamp=%v, want the client's values", got.UID, got.DeletionTimestamp)
	}
}
