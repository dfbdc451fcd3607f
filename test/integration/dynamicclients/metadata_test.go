package dynamicclients

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/metadata/metadatainformer"
)

func TestMetadataInformerFollowsConfigMaps(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ns := controlPlane.Namespace(t)
	cs, err := kubernetes.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("kubernetes.NewForConfig: %v", err)
	}
	configMaps := cs.CoreV1().ConfigMaps(ns)
	create := func(name string) {
		t.Helper()
		_, err := configMaps.Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"watched": "true"}},
			Data:       map[string]string{"k": name},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("creating ConfigMap %s: %v", name, err)
		}
	}
	for i := range 3 {
		create(fmt.Sprintf("before-%d", i))
	}
	// An unlabelled ConfigMap the filtered informer must not see.
	if _, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "unwatched"}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating unwatched ConfigMap: %v", err)
	}

	mc, err := metadata.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("metadata.NewForConfig: %v", err)
	}
	factory := metadatainformer.NewFilteredSharedInformerFactory(mc, 0, ns, func(o *metav1.ListOptions) {
		o.LabelSelector = "watched=true"
	})
	informer := factory.ForResource(corev1.SchemeGroupVersion.WithResource("configmaps"))
	lister := informer.Lister().ByNamespace(ns)
	factory.Start(ctx.Done())
	// Shutdown waits for the informers, which stop only once ctx is done.
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	for gvr, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("informer for %v did not sync", gvr)
		}
	}

	listed := func() []string {
		objs, err := lister.List(labels.Everything())
		if err != nil {
			t.Fatalf("lister.List: %v", err)
		}
		var names []string
		for _, o := range objs {
			pom, ok := o.(*metav1.PartialObjectMetadata)
			if !ok {
				t.Fatalf("lister returned %T, want *metav1.PartialObjectMetadata", o)
			}
			if pom.Namespace != ns || pom.UID == "" {
				t.Fatalf("lister returned %+v", pom.ObjectMeta)
			}
			names = append(names, pom.Name)
		}
		slices.Sort(names)
		return names
	}
	if got, want := listed(), []string{"before-0", "before-1", "before-2"}; !slices.Equal(got, want) {
		t.Fatalf("after sync lister has %v, want %v", got, want)
	}

	create("after-0")
	create("after-1")
	for _, name := range []string{"before-1", "after-0"} {
		if err := configMaps.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatalf("deleting %s: %v", name, err)
		}
	}
	want := []string{"after-1", "before-0", "before-2"}
	var got []string
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		got = listed()
		return slices.Equal(got, want), nil
	})
	if err != nil {
		t.Fatalf("lister has %v, want %v: %v", got, want, err)
	}
	if _, err := lister.Get("before-1"); err == nil {
		t.Fatalf("lister.Get of a deleted ConfigMap succeeded")
	}
	obj, err := lister.Get("after-1")
	if err != nil {
		t.Fatalf("lister.Get after-1: %v", err)
	}
	if pom := obj.(*metav1.PartialObjectMetadata); pom.Labels["watched"] != "true" || pom.Kind != "" && pom.Kind != "PartialObjectMetadata" && pom.Kind != "ConfigMap" {
		t.Fatalf("lister.Get after-1 = %+v", pom)
	}
}
