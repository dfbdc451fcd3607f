package crd_test

import (
	"context"
	"net/http/httptest"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
	applystablev1 "github.com/kubeclient/client-go/examples/crd/generated/applyconfiguration/stable/v1"
	"github.com/kubeclient/client-go/examples/crd/generated/clientset/versioned"
	"github.com/kubeclient/client-go/rest"
)

func newTypedClient(t *testing.T) (*cronTabServer, *versioned.Clientset) {
	t.Helper()
	s := newCronTabServer(t)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	cs, err := versioned.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatalf("NewForConfig: %v", err)
	}
	return s, cs
}

func TestTypedClientLifecycle(t *testing.T) {
	s, cs := newTypedClient(t)
	ctx := context.Background()
	c := cs.StableV1().CronTabs("x")

	in := &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "x"},
		Spec:       stablev1.CronTabSpec{CronSpec: "* * * * */5", Image: "busybox", Args: []string{"echo", "hi"}},
	}
	created, err := c.Create(ctx, in, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if created.ResourceVersion != "1" || created.Spec.Image != "busybox" || len(created.Spec.Args) != 2 {
		t.Fatalf("Create returned %+v", created)
	}
	if _, err := c.Create(ctx, in, metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second Create: want AlreadyExists, got %v", err)
	}

	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.Spec.CronSpec != "* * * * */5" {
		t.Fatalf("Get returned spec %+v", got.Spec)
	}
	if _, err := c.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get missing: want NotFound, got %v", err)
	}

	got.Spec.Image = "alpine"
	updated, err := c.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if updated.Spec.Image != "alpine" || updated.ResourceVersion != "2" {
		t.Fatalf("Update returned %+v", updated)
	}

	updated.Status.Phase = stablev1.CronTabActive
	updated.Status.Active = 3
	withStatus, err := c.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	if withStatus.Status.Phase != stablev1.CronTabActive || withStatus.Status.Active != 3 {
		t.Fatalf("UpdateStatus returned status %+v", withStatus.Status)
	}

	list, err := c.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "a" || list.ResourceVersion != "3" {
		t.Fatalf("List returned %+v", list)
	}

	w, err := c.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	ev, ok := <-w.ResultChan()
	if !ok {
		t.Fatal("watch closed before its first event")
	}
	if ct, isCronTab := ev.Object.(*stablev1.CronTab); ev.Type != watch.Added || !isCronTab || ct.Name != "a" || ct.Status.Active != 3 {
		t.Fatalf("watch event %s %#v", ev.Type, ev.Object)
	}
	w.Stop()

	applied, err := c.Apply(ctx, applystablev1.CronTab("b", "x").
		WithSpec(applystablev1.CronTabSpec().WithCronSpec("@hourly").WithImage("nginx")),
		metav1.ApplyOptions{FieldManager: "example"})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if applied.Name != "b" || applied.Spec.CronSpec != "@hourly" {
		t.Fatalf("Apply returned %+v", applied)
	}

	for _, name := range []string{"a", "b"} {
		if err := c.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatalf("Delete %s: %v", name, err)
		}
	}
	if err := c.Delete(ctx, "a", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("second Delete: want NotFound, got %v", err)
	}

	want := []string{
		"POST " + collectionPath,
		"POST " + collectionPath,
		"GET " + collectionPath + "/a",
		"GET " + collectionPath + "/missing",
		"PUT " + collectionPath + "/a",
		"PUT " + collectionPath + "/a/status",
		"GET " + collectionPath,
		"GET " + collectionPath,
		"PATCH " + collectionPath + "/b",
		"DELETE " + collectionPath + "/a",
		"DELETE " + collectionPath + "/b",
		"DELETE " + collectionPath + "/a",
	}
	if got := s.log(); len(got) != len(want) {
		t.Fatalf("requests:\n%q\nwant\n%q", got, want)
	} else {
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("request %d = %q, want %q", i, got[i], want[i])
			}
		}
	}
}
