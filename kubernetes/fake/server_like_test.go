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
	"k8s.io/apimachinery/pkg/watch"

	applycorev1 "github.com/kubeclient/client-go/applyconfigurations/core/v1"
	"github.com/kubeclient/client-go/kubernetes/fake"
)

// These tests use fake.NewServerLikeClientset as a controller's unit test
// would: through the typed clients only, with nothing wired by hand.

func TestServerLikeGenerateName(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	pods := cs.CoreV1().Pods("default")

	seen := map[string]bool{}
	for range 3 {
		p, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "worker-"}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("Create: %v", err)
		}
		if !strings.HasPrefix(p.Name, "worker-") || len(p.Name) <= len("worker-") {
			t.Errorf("generated name %q, want worker-<suffix>", p.Name)
		}
		if seen[p.Name] {
			t.Errorf("name %q generated twice", p.Name)
		}
		seen[p.Name] = true
		if p.UID == "" || p.ResourceVersion == "" || p.CreationTimestamp.IsZero() || p.Generation != 1 {
			t.Errorf("server metadata not filled in: uid %q rv %q created %v generation %d", p.UID, p.ResourceVersion, p.CreationTimestamp, p.Generation)
		}
	}
	list, err := pods.List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 3 {
		t.Fatalf("List = %d pods, %v; want 3", len(list.Items), err)
	}
}

func TestServerLikeConflictOnStaleUpdate(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cms := cs.CoreV1().ConfigMaps("default")
	created, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"mode": "a"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// Two writers read the same version; the first update wins.
	first, second := created.DeepCopy(), created.DeepCopy()
	first.Data["mode"] = "b"
	updated, err := cms.Update(ctx, first, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("first Update: %v", err)
	}
	if updated.ResourceVersion == created.ResourceVersion {
		t.Errorf("Update kept resourceVersion %s", created.ResourceVersion)
	}

	tests := []struct {
		name     string
		rv       string
		conflict bool
	}{
		{"stale resourceVersion", created.ResourceVersion, true},
		{"current resourceVersion", updated.ResourceVersion, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj := second.DeepCopy()
			obj.ResourceVersion = tc.rv
			obj.Data["mode"] = "c-" + tc.rv
			_, err := cms.Update(ctx, obj, metav1.UpdateOptions{})
			if got := apierrors.IsConflict(err); got != tc.conflict {
				t.Fatalf("Update error = %v, conflict %v; want conflict %v", err, got, tc.conflict)
			}
		})
	}
	got, err := cms.Get(ctx, "settings", metav1.GetOptions{})
	if err != nil || got.Data["mode"] != "c-"+updated.ResourceVersion {
		t.Errorf("stored mode = %q, %v; want the update made at the current version", got.Data["mode"], err)
	}
}

func TestServerLikeListByFieldSelector(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}, Spec: corev1.PodSpec{NodeName: "node-1"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}, Spec: corev1.PodSpec{NodeName: "node-2"}, Status: corev1.PodStatus{Phase: corev1.PodRunning}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "other"}, Spec: corev1.PodSpec{NodeName: "node-1"}, Status: corev1.PodStatus{Phase: corev1.PodPending}},
	)
	tests := []struct {
		name      string
		namespace string
		selector  string
		want      []string
	}{
		{"by node, all namespaces", "", "spec.nodeName=node-1", []string{"a", "c"}},
		{"by node, one namespace", "default", "spec.nodeName=node-1", []string{"a"}},
		{"by phase", "", "status.phase=Running", []string{"a", "b"}},
		{"not equal", "", "status.phase!=Running", []string{"c"}},
		{"by name", "", "metadata.name=b", []string{"b"}},
		{"two fields", "", "spec.nodeName=node-1,status.phase=Pending", []string{"c"}},
		{"no match", "", "spec.nodeName=node-9", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := cs.CoreV1().Pods(tc.namespace).List(ctx, metav1.ListOptions{FieldSelector: tc.selector})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			var got []string
			for _, p := range list.Items {
				got = append(got, p.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("List(%q) = %v, want %v", tc.selector, got, tc.want)
			}
		})
	}
	if _, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName"}); !apierrors.IsBadRequest(err) {
		t.Errorf("List with a malformed selector: error = %v, want BadRequest", err)
	}
}

func TestServerLikeWatchFromResourceVersion(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cms := cs.CoreV1().ConfigMaps("default")
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "before"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := cms.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// Changes made after the list, before the watch starts.
	after, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after.Data = map[string]string{"k": "v"}
	if _, err := cms.Update(ctx, after, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(ctx, "before", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()
	want := []struct {
		typ  watch.EventType
		name string
	}{
		{watch.Added, "after"},
		{watch.Modified, "after"},
		{watch.Deleted, "before"},
	}
	for i, ev := range want {
		got := next(t, w)
		cm, ok := got.Object.(*corev1.ConfigMap)
		if !ok || got.Type != ev.typ || cm.Name != ev.name {
			t.Fatalf("event %d = %s %T, want %s %s", i, got.Type, got.Object, ev.typ, ev.name)
		}
	}

	// The watch goes on with live changes.
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "live"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := next(t, w); got.Type != watch.Added || got.Object.(*corev1.ConfigMap).Name != "live" {
		t.Fatalf("live event = %s %v, want ADDED live", got.Type, got.Object)
	}
}

func TestServerLikeApplyWithTwoFieldManagers(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cms := cs.CoreV1().ConfigMaps("default")
	apply := func(manager string, force bool, data map[string]string) (*corev1.ConfigMap, error) {
		cfg := applycorev1.ConfigMap("settings", "default").WithData(data)
		return cms.Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: manager, Force: force})
	}

	// Each manager owns the keys it applies; the object holds both.
	if _, err := apply("alice", false, map[string]string{"a": "1", "shared": "alice"}); err != nil {
		t.Fatalf("alice's apply: %v", err)
	}
	cm, err := apply("bob", false, map[string]string{"b": "2"})
	if err != nil {
		t.Fatalf("bob's apply: %v", err)
	}
	if want := map[string]string{"a": "1", "b": "2", "shared": "alice"}; !maps.Equal(cm.Data, want) {
		t.Errorf("data = %v, want %v", cm.Data, want)
	}
	if got := managers(cm); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Errorf("managers = %v, want alice and bob", got)
	}

	// Changing a key another manager owns conflicts, unless forced.
	_, err = apply("bob", false, map[string]string{"b": "2", "shared": "bob"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "alice") {
		t.Fatalf("bob's apply of alice's key: error = %v, want a conflict naming alice", err)
	}
	if cm, err = apply("bob", true, map[string]string{"b": "2", "shared": "bob"}); err != nil {
		t.Fatalf("bob's forced apply: %v", err)
	}
	if cm.Data["shared"] != "bob" {
		t.Errorf("shared = %q after the forced apply, want bob", cm.Data["shared"])
	}

	// A manager that stops applying a key it alone owns removes it.
	if cm, err = apply("alice", false, map[string]string{}); err != nil {
		t.Fatalf("alice's empty apply: %v", err)
	}
	if want := map[string]string{"b": "2", "shared": "bob"}; !maps.Equal(cm.Data, want) {
		t.Errorf("data after alice let go = %v, want %v", cm.Data, want)
	}
}

// next returns the next event of w, failing the test if none arrives
// within a generous bound (the fake sends synchronously; the bound only
// keeps a broken fake from hanging the test).
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event")
	}
	return watch.Event{}
}

// managers returns the sorted names of the managers owning fields of obj.
func managers(obj metav1.Object) []string {
	var names []string
	for _, e := range obj.GetManagedFields() {
		if !slices.Contains(names, e.Manager) {
			names = append(names, e.Manager)
		}
	}
	slices.Sort(names)
	return names
}
