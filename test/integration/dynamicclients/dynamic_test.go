package dynamicclients

import (
	"context"
	"slices"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

var cronTabs = crdSpec{group: "stable.example.com", kind: "CronTab", plural: "crontabs", singular: "crontab", shortName: "ct"}

func cronTab(name, cronSpec string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name},
		"spec":       map[string]any{"cronSpec": cronSpec, "image": "busybox"},
	}}
}

func nestedString(t *testing.T, u *unstructured.Unstructured, fields ...string) string {
	t.Helper()
	s, _, err := unstructured.NestedString(u.Object, fields...)
	if err != nil {
		t.Fatalf("reading %v: %v", fields, err)
	}
	return s
}

func TestDynamicCustomResourceLifecycle(t *testing.T) {
	ctx := context.Background()
	client := newDynamic(t)
	createCRD(t, client, cronTabs)
	ns := controlPlane.Namespace(t)
	res := client.Resource(cronTabs.resource()).Namespace(ns)

	empty, err := res.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("initial List: %v", err)
	}
	if len(empty.Items) != 0 || empty.GetResourceVersion() == "" {
		t.Fatalf("initial List: %d items, resourceVersion %q", len(empty.Items), empty.GetResourceVersion())
	}
	startRV := empty.GetResourceVersion()

	// Create.
	created, err := res.Create(ctx, cronTab("ct1", "* * * * */5"), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if created.GetUID() == "" || created.GetNamespace() != ns || nestedString(t, created, "spec", "cronSpec") != "* * * * */5" {
		t.Fatalf("Create returned %v", created.Object)
	}
	if _, err := res.Create(ctx, cronTab("ct1", "x"), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second Create: want AlreadyExists, got %v", err)
	}

	// Get.
	got, err := res.Get(ctx, "ct1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.GetUID() != created.GetUID() || got.GetKind() != "CronTab" || got.GetAPIVersion() != "stable.example.com/v1" {
		t.Fatalf("Get returned %v", got.Object)
	}
	if _, err := res.Get(ctx, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get missing: want NotFound, got %v", err)
	}

	// List.
	if _, err := res.Create(ctx, cronTab("ct2", "0 * * * *"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create ct2: %v", err)
	}
	list, err := res.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var names []string
	for _, item := range list.Items {
		names = append(names, item.GetName())
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"ct1", "ct2"}) {
		t.Fatalf("List names = %v, want [ct1 ct2]", names)
	}

	// Update.
	if err := unstructured.SetNestedField(got.Object, "*/10 * * * *", "spec", "cronSpec"); err != nil {
		t.Fatal(err)
	}
	updated, err := res.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if nestedString(t, updated, "spec", "cronSpec") != "*/10 * * * *" || updated.GetResourceVersion() == got.GetResourceVersion() {
		t.Fatalf("Update returned %v", updated.Object)
	}
	// A stale resourceVersion must conflict.
	if _, err := res.Update(ctx, got, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Fatalf("stale Update: want Conflict, got %v", err)
	}

	// UpdateStatus: the status subresource ignores spec changes.
	if err := unstructured.SetNestedField(updated.Object, "Running", "status", "phase"); err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedField(updated.Object, "ignored", "spec", "cronSpec"); err != nil {
		t.Fatal(err)
	}
	statusUpdated, err := res.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	if nestedString(t, statusUpdated, "status", "phase") != "Running" || nestedString(t, statusUpdated, "spec", "cronSpec") != "*/10 * * * *" {
		t.Fatalf("UpdateStatus returned %v", statusUpdated.Object)
	}

	// Patch (JSON merge patch).
	patched, err := res.Patch(ctx, "ct1", types.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}},"spec":{"replicas":3}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("Patch: %v", err)
	}
	replicas, _, _ := unstructured.NestedInt64(patched.Object, "spec", "replicas")
	if patched.GetLabels()["patched"] != "yes" || replicas != 3 || nestedString(t, patched, "status", "phase") != "Running" {
		t.Fatalf("Patch returned %v", patched.Object)
	}

	// Apply (server-side apply).
	applyObj := cronTab("ct1", "@hourly")
	applied, err := res.Apply(ctx, "ct1", applyObj, metav1.ApplyOptions{FieldManager: "integration-test", Force: true})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if nestedString(t, applied, "spec", "cronSpec") != "@hourly" || applied.GetLabels()["patched"] != "yes" {
		t.Fatalf("Apply returned %v", applied.Object)
	}
	managers := map[string]bool{}
	for _, mf := range applied.GetManagedFields() {
		managers[mf.Manager+"/"+string(mf.Operation)] = true
	}
	if !managers["integration-test/Apply"] {
		t.Fatalf("Apply: managedFields %v lack integration-test/Apply", managers)
	}
	if _, err := res.Apply(ctx, "ct1", applyObj, metav1.ApplyOptions{}); err == nil {
		t.Fatalf("Apply without FieldManager: want an error")
	}

	// Watch from the resourceVersion before the first Create replays the
	// history in order, then reports the Delete.
	w, err := res.Watch(ctx, metav1.ListOptions{ResourceVersion: startRV})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()

	// Delete.
	if err := res.Delete(ctx, "ct1", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := res.Get(ctx, "ct1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get after Delete: want NotFound, got %v", err)
	}

	type step struct {
		typ  watch.EventType
		name string
		rv   string
	}
	want := []step{
		{watch.Added, "ct1", created.GetResourceVersion()},
		{watch.Added, "ct2", ""},
		{watch.Modified, "ct1", updated.GetResourceVersion()},
		{watch.Modified, "ct1", statusUpdated.GetResourceVersion()},
		{watch.Modified, "ct1", patched.GetResourceVersion()},
		{watch.Modified, "ct1", applied.GetResourceVersion()},
		{watch.Deleted, "ct1", ""},
	}
	timeout := time.After(waitTimeout)
	for i, ws := range want {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed after %d events", i)
			}
			obj, isU := ev.Object.(*unstructured.Unstructured)
			if !isU {
				t.Fatalf("event %d: object is %T (%v)", i, ev.Object, ev.Object)
			}
			if ev.Type != ws.typ || obj.GetName() != ws.name || (ws.rv != "" && obj.GetResourceVersion() != ws.rv) {
				t.Fatalf("event %d = %s %s rv %s, want %s %s rv %s", i, ev.Type, obj.GetName(), obj.GetResourceVersion(), ws.typ, ws.name, ws.rv)
			}
		case <-timeout:
			t.Fatalf("timed out waiting for watch event %d (%s %s)", i, ws.typ, ws.name)
		}
	}
}
