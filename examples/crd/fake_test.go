package crd_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	stablev1 "github.com/kubeclient/client-go/examples/crd/apis/stable/v1"
	applystablev1 "github.com/kubeclient/client-go/examples/crd/generated/applyconfiguration/stable/v1"
	"github.com/kubeclient/client-go/examples/crd/generated/clientset/versioned/fake"
	informers "github.com/kubeclient/client-go/examples/crd/generated/informers/externalversions"
	"github.com/kubeclient/client-go/tools/cache"
)

func cronTab(ns, name string) *stablev1.CronTab {
	return &stablev1.CronTab{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": "demo"}},
		Spec:       stablev1.CronTabSpec{CronSpec: "@daily", Image: "busybox"},
	}
}

func TestFakeClientset(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewSimpleClientset(cronTab("x", "a"), &stablev1.CronTabClass{ObjectMeta: metav1.ObjectMeta{Name: "fast"}})

	got, err := cs.StableV1().CronTabs("x").Get(ctx, "a", metav1.GetOptions{})
	if err != nil || got.Spec.Image != "busybox" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if _, err := cs.StableV1().CronTabs("other").Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get in other namespace: want NotFound, got %v", err)
	}
	if _, err := cs.StableV1().CronTabs("x").Create(ctx, cronTab("x", "b"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	got.Status.Phase = stablev1.CronTabActive
	if _, err := cs.StableV1().CronTabs("x").UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	list, err := cs.StableV1().CronTabs("x").List(ctx, metav1.ListOptions{})
	if err != nil || len(list.Items) != 2 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	classes, err := cs.StableV1().CronTabClasses().List(ctx, metav1.ListOptions{})
	if err != nil || len(classes.Items) != 1 || classes.Items[0].Name != "fast" {
		t.Fatalf("cluster-scoped List = %+v, %v", classes, err)
	}
	var verbs []string
	for _, a := range cs.Actions() {
		verbs = append(verbs, a.GetVerb()+"/"+a.GetSubresource())
	}
	want := []string{"get/", "get/", "create/", "update/status", "list/", "list/"}
	if !reflect.DeepEqual(verbs, want) {
		t.Fatalf("actions = %q, want %q", verbs, want)
	}
}

func TestInformerAndListerSeeFakeObjects(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs := fake.NewSimpleClientset(cronTab("x", "a"))
	factory := informers.NewSharedInformerFactory(cs, 0)
	cronTabs := factory.Stable().V1().CronTabs()
	added := make(chan string, 4)
	if _, err := cronTabs.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { added <- obj.(*stablev1.CronTab).Name },
	}); err != nil {
		t.Fatalf("AddEventHandler: %v", err)
	}
	factory.Start(ctx.Done())
	// Shutdown waits for the informers, which stop only once ctx is done.
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("cache of %v did not sync", typ)
		}
	}
	lister := cronTabs.Lister()
	if got, err := lister.CronTabs("x").Get("a"); err != nil || got.Spec.Image != "busybox" {
		t.Fatalf("lister Get = %+v, %v", got, err)
	}
	if _, err := lister.CronTabs("x").Get("missing"); !apierrors.IsNotFound(err) {
		t.Fatalf("lister Get missing: want NotFound, got %v", err)
	}

	if _, err := cs.StableV1().CronTabs("x").Create(ctx, cronTab("x", "b"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	seen := map[string]bool{}
	timeout := time.After(10 * time.Second)
	for !seen["b"] {
		select {
		case name := <-added:
			seen[name] = true
		case <-timeout:
			t.Fatalf("informer did not deliver the created object; saw %v", seen)
		}
	}
	all, err := lister.List(labels.SelectorFromSet(labels.Set{"app": "demo"}))
	if err != nil || len(all) != 2 {
		t.Fatalf("lister List = %d objects, %v", len(all), err)
	}
}

func TestApplyConfigurationJSON(t *testing.T) {
	ac := applystablev1.CronTab("a", "x").
		WithLabels(map[string]string{"app": "demo"}).
		WithSpec(applystablev1.CronTabSpec().
			WithCronSpec("@hourly").
			WithImage("nginx").
			WithReplicas(2).
			WithArgs("-v").
			WithEnv(applystablev1.EnvVar().WithName("MODE").WithValue("fast")).
			WithRetry(applystablev1.RetryPolicy().WithLimit(3)))
	got, err := json.Marshal(ac)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	const want = `{
		"kind": "CronTab",
		"apiVersion": "stable.example.com/v1",
		"metadata": {"name": "a", "namespace": "x", "labels": {"app": "demo"}},
		"spec": {
			"cronSpec": "@hourly",
			"image": "nginx",
			"replicas": 2,
			"args": ["-v"],
			"env": [{"name": "MODE", "value": "fast"}],
			"retry": {"limit": 3}
		}
	}`
	var gotV, wantV any
	if err := json.Unmarshal(got, &gotV); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &wantV); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotV, wantV) {
		t.Fatalf("apply configuration JSON:\n%s\nwant\n%s", got, want)
	}
}
