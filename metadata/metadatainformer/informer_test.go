package metadatainformer

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/metadata/fake"
	"github.com/kubeclient/client-go/tools/cache"
)

var widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widget(ns, name, app string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}},
	}
}

type event struct{ kind, name string }

func recordEvents(t *testing.T, informer cache.SharedIndexInformer) <-chan event {
	t.Helper()
	events := make(chan event, 100)
	name := func(obj interface{}) string {
		if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tombstone.Obj
		}
		m := obj.(*metav1.PartialObjectMetadata)
		return m.Namespace + "/" + m.Name
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { events <- event{"add", name(obj)} },
		UpdateFunc: func(_, obj interface{}) { events <- event{"update", name(obj)} },
		DeleteFunc: func(obj interface{}) { events <- event{"delete", name(obj)} },
	}); err != nil {
		t.Fatal(err)
	}
	return events
}

func expectEvents(t *testing.T, events <-chan event, want ...event) {
	t.Helper()
	for _, exp := range want {
		select {
		case got := <-events:
			if got != exp {
				t.Fatalf("got %v, want %v", got, exp)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no event %v", exp)
		}
	}
}

func run(t *testing.T, factory SharedInformerFactory) chan struct{} {
	t.Helper()
	stop := make(chan struct{})
	factory.Start(stop)
	t.Cleanup(func() {
		close(stop)
		factory.Shutdown()
	})
	if synced := factory.WaitForCacheSync(stop); !synced[widgetsGVR] {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	return stop
}

func TestInformerFollowsCreatesUpdatesDeletes(t *testing.T) {
	client := fake.NewSimpleMetadataClient(fake.NewTestScheme(), widget("ns", "a", "web"))
	factory := NewSharedInformerFactory(client, 0)
	generic := factory.ForResource(widgetsGVR)
	if factory.ForResource(widgetsGVR) != generic {
		t.Error("ForResource made a second informer")
	}
	events := recordEvents(t, generic.Informer())
	run(t, factory)
	expectEvents(t, events, event{"add", "ns/a"})

	writer := client.Resource(widgetsGVR).Namespace("ns").(fake.MetadataClient)
	if _, err := writer.CreateFake(widget("ns", "b", "db"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	a, err := writer.Get(context.Background(), "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a.Labels["app"] = "changed"
	if _, err := writer.UpdateFake(a, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := writer.Delete(context.Background(), "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expectEvents(t, events, event{"add", "ns/b"}, event{"update", "ns/a"}, event{"delete", "ns/b"})

	got, err := generic.Lister().ByNamespace("ns").Get("a")
	if err != nil || got.(*metav1.PartialObjectMetadata).Labels["app"] != "changed" {
		t.Errorf("lister: %v, %v", got, err)
	}
}

func TestFilteredFactoryAndTransform(t *testing.T) {
	client := fake.NewSimpleMetadataClient(fake.NewTestScheme(),
		widget("ns", "a", "web"), widget("ns", "b", "db"), widget("other", "c", "web"))
	filtered := NewFilteredSharedInformerFactory(client, 0, "ns", func(opts *metav1.ListOptions) { opts.LabelSelector = "app=web" })
	generic := filtered.ForResource(widgetsGVR)
	run(t, filtered)
	all, err := generic.Lister().List(labels.Everything())
	if err != nil || len(all) != 1 || all[0].(*metav1.PartialObjectMetadata).Name != "a" {
		t.Errorf("filtered cache: %v, %v", all, err)
	}

	transformed := NewSharedInformerFactoryWithOptions(client, 0, WithTransform(func(obj interface{}) (interface{}, error) {
		m := obj.(*metav1.PartialObjectMetadata).DeepCopy()
		m.Annotations = map[string]string{"seen": "yes"}
		return m, nil
	}))
	tg := transformed.ForResource(widgetsGVR)
	run(t, transformed)
	cached, err := tg.Lister().List(labels.Everything())
	if err != nil || len(cached) != 3 {
		t.Fatalf("transformed cache: %d objects, %v", len(cached), err)
	}
	for _, obj := range cached {
		if obj.(*metav1.PartialObjectMetadata).Annotations["seen"] != "yes" {
			t.Errorf("%v was not transformed", obj)
		}
	}
}

func TestNewFilteredMetadataInformer(t *testing.T) {
	client := fake.NewSimpleMetadataClient(fake.NewTestScheme(), widget("ns", "a", "web"), widget("other", "b", "web"))
	generic := NewFilteredMetadataInformer(client, widgetsGVR, "other", 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, nil)
	events := recordEvents(t, generic.Informer())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		generic.Informer().RunWithContext(ctx)
		close(done)
	}()
	defer func() {
		cancel()
		<-done
	}()
	expectEvents(t, events, event{"add", "other/b"})
	if keys := generic.Informer().GetIndexer().ListKeys(); len(keys) != 1 || keys[0] != "other/b" {
		t.Errorf("cache keys %v", keys)
	}
}
