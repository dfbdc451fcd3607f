package crd_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
	applystablev1 "github.com/kubeclient/client-go/examples/crd/generated/applyconfiguration/stable/v1"
	"github.com/kubeclient/client-go/examples/crd/generated/clientset/versioned/fake"
)

// These tests use the generated fake.NewServerLikeClientset of the CronTab
// clientset the way the CRD's controller tests would: through the typed
// clients only.

func TestServerLikeCronTabGenerateName(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cronTabs := cs.StableV1().CronTabs("x")
	seen := map[string]bool{}
	for range 3 {
		ct := cronTab("x", "")
		ct.GenerateName = "nightly-"
		got, err := cronTabs.Create(ctx, ct, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("Create: %v", err)
		}
		if !strings.HasPrefix(got.Name, "nightly-") || len(got.Name) == len("nightly-") || seen[got.Name] {
			t.Errorf("generated name %q: want a new nightly-<suffix>", got.Name)
		}
		seen[got.Name] = true
		if got.UID == "" || got.ResourceVersion == "" || got.Generation != 1 {
			t.Errorf("server metadata not filled in: %+v", got.ObjectMeta)
		}
	}
}

func TestServerLikeCronTabConflictOnStaleUpdate(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cronTabs := cs.StableV1().CronTabs("x")
	created, err := cronTabs.Create(ctx, cronTab("x", "a"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fresh := created.DeepCopy()
	fresh.Spec.Image = "busybox:2"
	updated, err := cronTabs.Update(ctx, fresh, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if updated.Generation != 2 {
		t.Errorf("generation after a spec change = %d, want 2", updated.Generation)
	}

	tests := []struct {
		name     string
		write    func(*stablev1.CronTab) error
		conflict bool
	}{
		{"stale update", func(ct *stablev1.CronTab) error {
			ct.Spec.Image = "busybox:3"
			_, err := cronTabs.Update(ctx, ct, metav1.UpdateOptions{})
			return err
		}, true},
		{"stale status update", func(ct *stablev1.CronTab) error {
			ct.Status.Phase = stablev1.CronTabActive
			_, err := cronTabs.UpdateStatus(ctx, ct, metav1.UpdateOptions{})
			return err
		}, true},
		{"update without a resourceVersion", func(ct *stablev1.CronTab) error {
			ct.ResourceVersion = ""
			ct.Spec = updated.Spec
			ct.Spec.Args = []string{"--once"}
			_, err := cronTabs.Update(ctx, ct, metav1.UpdateOptions{})
			return err
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.write(created.DeepCopy())
			if got := apierrors.IsConflict(err); got != tc.conflict {
				t.Fatalf("error = %v, conflict %v; want conflict %v", err, got, tc.conflict)
			}
		})
	}
}

func TestServerLikeCronTabListByFieldSelector(t *testing.T) {
	ctx := context.Background()
	nightly := cronTab("x", "nightly")
	hourly := cronTab("x", "hourly")
	hourly.Spec.CronSpec = "@hourly"
	other := cronTab("y", "other")
	other.Spec.Image = "alpine"
	cs := fake.NewServerLikeClientset(nightly, hourly, other)

	tests := []struct {
		namespace, selector string
		want                []string
	}{
		{"", "spec.image=busybox", []string{"hourly", "nightly"}},
		{"", "spec.cronSpec=@hourly", []string{"hourly"}},
		{"x", "metadata.name!=nightly", []string{"hourly"}},
		{"", "metadata.namespace=y", []string{"other"}},
		{"y", "spec.image=busybox", nil},
	}
	for _, tc := range tests {
		t.Run(tc.namespace+"/"+tc.selector, func(t *testing.T) {
			list, err := cs.StableV1().CronTabs(tc.namespace).List(ctx, metav1.ListOptions{FieldSelector: tc.selector})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			var got []string
			for _, ct := range list.Items {
				got = append(got, ct.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestServerLikeCronTabWatchFromResourceVersion(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cronTabs := cs.StableV1().CronTabs("x")
	first, err := cronTabs.Create(ctx, cronTab("x", "first"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := cronTabs.Create(ctx, cronTab("x", "second"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	second.Status.Phase = stablev1.CronTabActive
	if _, err := cronTabs.UpdateStatus(ctx, second, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}

	// A watch from the version of the first create sees what followed it.
	w, err := cronTabs.Watch(ctx, metav1.ListOptions{ResourceVersion: first.ResourceVersion})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()
	want := []struct {
		typ   watch.EventType
		name  string
		phase stablev1.CronTabPhase
	}{
		{watch.Added, "second", ""},
		{watch.Modified, "second", stablev1.CronTabActive},
	}
	for i, ev := range want {
		got := nextEvent(t, w)
		ct, ok := got.Object.(*stablev1.CronTab)
		if !ok || got.Type != ev.typ || ct.Name != ev.name || ct.Status.Phase != ev.phase {
			t.Fatalf("event %d = %s %+v, want %s %s phase %q", i, got.Type, got.Object, ev.typ, ev.name, ev.phase)
		}
	}
}

func TestServerLikeCronTabApplyWithTwoFieldManagers(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewServerLikeClientset()
	cronTabs := cs.StableV1().CronTabs("x")
	apply := func(manager string, force bool, spec *applystablev1.CronTabSpecApplyConfiguration) (*stablev1.CronTab, error) {
		return cronTabs.Apply(ctx, applystablev1.CronTab("a", "x").WithSpec(spec), metav1.ApplyOptions{FieldManager: manager, Force: force})
	}
	env := func(name, value string) *applystablev1.EnvVarApplyConfiguration {
		return applystablev1.EnvVar().WithName(name).WithValue(value)
	}

	if _, err := apply("deployer", false, applystablev1.CronTabSpec().WithCronSpec("@daily").WithImage("busybox").WithEnv(env("A", "1"))); err != nil {
		t.Fatalf("deployer's apply: %v", err)
	}
	// spec.env is a map-list keyed by name: the tuner's entry joins the
	// deployer's rather than replacing the list.
	ct, err := apply("tuner", false, applystablev1.CronTabSpec().WithEnv(env("B", "2")))
	if err != nil {
		t.Fatalf("tuner's apply: %v", err)
	}
	if got := envNames(ct); !slices.Equal(got, []string{"A", "B"}) {
		t.Errorf("env = %v, want A and B", got)
	}

	// spec.image belongs to the deployer.
	_, err = apply("tuner", false, applystablev1.CronTabSpec().WithImage("alpine").WithEnv(env("B", "2")))
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "deployer") {
		t.Fatalf("tuner's apply of spec.image: error = %v, want a conflict naming deployer", err)
	}
	if ct, err = apply("tuner", true, applystablev1.CronTabSpec().WithImage("alpine").WithEnv(env("B", "2"))); err != nil {
		t.Fatalf("tuner's forced apply: %v", err)
	}
	if ct.Spec.Image != "alpine" || ct.Spec.CronSpec != "@daily" {
		t.Errorf("spec after the forced apply = %+v", ct.Spec)
	}

	// The deployer stops applying its env entry and the image it lost.
	if ct, err = apply("deployer", false, applystablev1.CronTabSpec().WithCronSpec("@daily")); err != nil {
		t.Fatalf("deployer's second apply: %v", err)
	}
	if got := envNames(ct); !slices.Equal(got, []string{"B"}) || ct.Spec.Image != "alpine" {
		t.Errorf("after the deployer let go: env %v image %q, want [B] alpine", got, ct.Spec.Image)
	}
}

func envNames(ct *stablev1.CronTab) []string {
	var names []string
	for _, e := range ct.Spec.Env {
		names = append(names, e.Name)
	}
	return names
}

// nextEvent returns the next event of w, failing the test if none arrives
// within a generous bound.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
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
