package dynamicclients

import (
	"context"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/metadata/metadatainformer"
)

var gadgets = crdSpec{group: "meta.example.com", kind: "Gadget", plural: "gadgets", singular: "gadget", shortName: "gdg"}

func gadget(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "meta.example.com/v1",
		"kind":       "Gadget",
		"metadata":   map[string]any{"name": name},
		"spec":       map[string]any{"image": "busybox"},
	}}
}

// TestMetadataInformerListsCustomResources lists the objects of a CRD created
// by the test through a metadata informer and follows creates and deletes.
func TestMetadataInformerListsCustomResources(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := newDynamic(t)
	createCRD(t, client, gadgets)
	ns := controlPlane.Namespace(t)
	res := client.Resource(gadgets.resource()).Namespace(ns)
	for _, name := range []string{"g1", "g2"} {
		if _, err := res.Create(ctx, gadget(name), metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s: %v", name, err)
		}
	}

	mc, err := metadata.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("metadata.NewForConfig: %v", err)
	}
	factory := metadatainformer.NewFilteredSharedInformerFactory(mc, 0, ns, nil)
	lister := factory.ForResource(gadgets.resource()).Lister().ByNamespace(ns)
	factory.Start(ctx.Done())
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
			if pom.UID == "" {
				t.Fatalf("lister returned an object without a UID: %+v", pom.ObjectMeta)
			}
			names = append(names, pom.Name)
		}
		slices.Sort(names)
		return names
	}
	if got, want := listed(), []string{"g1", "g2"}; !slices.Equal(got, want) {
		t.Fatalf("after sync lister has %v, want %v", got, want)
	}

	if _, err := res.Create(ctx, gadget("g3"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating g3: %v", err)
	}
	if err := res.Delete(ctx, "g1", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting g1: %v", err)
	}
	want := []string{"g2", "g3"}
	var got []string
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		got = listed()
		return slices.Equal(got, want), nil
	})
	if err != nil {
		t.Fatalf("lister has %v, want %v: %v", got, want, err)
	}
}
