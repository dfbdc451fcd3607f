package dynamicinformer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/dynamic/fake"
	"github.com/kubeclient/client-go/rest"
	clienttesting "github.com/kubeclient/client-go/testing"
	"github.com/kubeclient/client-go/tools/cache"
)

var widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widget(ns, name, app string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(map[string]string{"app": app})
	return u
}

// event is what the test handler saw, in order.
type event struct {
	kind, name, rv string
}

func recordEvents(t *testing.T, informer cache.SharedIndexInformer) <-chan event {
	t.Helper()
	events := make(chan event, 100)
	name := func(obj interface{}) (string, string) {
		if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tombstone.Obj
		}
		u := obj.(*unstructured.Unstructured)
		return u.GetNamespace() + "/" + u.GetName(), u.GetResourceVersion()
	}
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { n, rv := name(obj); events <- event{"add", n, rv} },
		UpdateFunc: func(_, obj interface{}) {
			n, rv := name(obj)
			events <- event{"update", n, rv}
		},
		DeleteFunc: func(obj interface{}) { n, _ := name(obj); events <- event{"delete", n, ""} },
	})
	if err != nil {
		t.Fatal(err)
	}
	return events
}

func expectEvents(t *testing.T, events <-chan event, want ...event) {
	t.Helper()
	for _, exp := range want {
		select {
		case got := <-events:
			if got.kind != exp.kind || got.name != exp.name {
				t.Fatalf("got %s %s, want %s %s", got.kind, got.name, exp.kind, exp.name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s event for %s", exp.kind, exp.name)
		}
	}
}

func TestFactoryInformerFollowsTheFakeClient(t *testing.T) {
	client := fake.NewSimpleDynamicClient(runtime.NewScheme(), widget("ns", "a", "web"), widget("other", "b", "web"))
	factory := NewDynamicSharedInformerFactory(client, 0)
	generic := factory.ForResource(widgetsGVR)
	if factory.ForResource(widgetsGVR) != generic {
		t.Error("ForResource returned a second informer for the same resource")
	}
	events := recordEvents(t, generic.Informer())

	stop := make(chan struct{})
	factory.Start(stop)
	defer func() {
		close(stop)
		factory.Shutdown()
	}()
	if synced := factory.WaitForCacheSync(stop); !synced[widgetsGVR] || len(synced) != 1 {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	expectEvents(t, events, event{kind: "add", name: "ns/a"}, event{kind: "add", name: "other/b"})

	ctx := context.Background()
	widgets := client.Resource(widgetsGVR).Namespace("ns")
	if _, err := widgets.Create(ctx, widget("ns", "c", "db"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	a, err := widgets.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a.SetLabels(map[string]string{"app": "changed"})
	if _, err := widgets.Update(ctx, a, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := widgets.Delete(ctx, "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expectEvents(t, events, event{kind: "add", name: "ns/c"}, event{kind: "update", name: "ns/a"}, event{kind: "delete", name: "ns/c"})

	lister := generic.Lister()
	got, err := lister.ByNamespace("ns").Get("a")
	if err != nil || got.(*unstructured.Unstructured).GetLabels()["app"] != "changed" {
		t.Errorf("lister sees %v, %v", got, err)
	}
	all, err := lister.List(labels.Everything())
	if err != nil || len(all) != 2 {
		t.Errorf("lister lists %d objects, %v", len(all), err)
	}
}

func TestFilteredFactoryAppliesNamespaceAndTweak(t *testing.T) {
	client := fake.NewSimpleDynamicClient(runtime.NewScheme(),
		widget("ns", "a", "web"), widget("ns", "b", "db"), widget("other", "c", "web"))
	factory := NewFilteredDynamicSharedInformerFactory(client, 0, "ns", func(opts *metav1.ListOptions) {
		opts.LabelSelector = "app=web"
	})
	generic := factory.ForResource(widgetsGVR)
	events := recordEvents(t, generic.Informer())
	stop := make(chan struct{})
	factory.Start(stop)
	defer func() {
		close(stop)
		factory.Shutdown()
	}()
	factory.WaitForCacheSync(stop)
	expectEvents(t, events, event{kind: "add", name: "ns/a"})

	if _, err := client.Resource(widgetsGVR).Namespace("ns").Create(context.Background(), widget("ns", "d", "web"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	expectEvents(t, events, event{kind: "add", name: "ns/d"})
	all, _ := generic.Lister().List(labels.Everything())
	if len(all) != 2 {
		t.Errorf("filtered cache holds %d objects, want 2", len(all))
	}
	sawList := false
	for _, a := range client.Actions() {
		if a.GetVerb() == "list" || a.GetVerb() == "watch" {
			if a.GetNamespace() != "ns" {
				t.Errorf("%s in namespace %q", a.GetVerb(), a.GetNamespace())
			}
		}
		if list, ok := a.(clienttesting.ListActionImpl); ok {
			sawList = true
			if list.GetListRestrictions().Labels.String() != "app=web" {
				t.Errorf("list labels %q", list.GetListRestrictions().Labels)
			}
		}
	}
	if !sawList {
		t.Error("the informer never listed")
	}
}

func TestShutdownWaitsAndStopsStarting(t *testing.T) {
	client := fake.NewSimpleDynamicClient(runtime.NewScheme(), widget("ns", "a", "web"))
	factory := NewDynamicSharedInformerFactory(client, 0)
	factory.ForResource(widgetsGVR)
	stop := make(chan struct{})
	factory.Start(stop)
	close(stop)
	done := make(chan struct{})
	go func() {
		factory.Shutdown()
		factory.Shutdown()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown did not return after the stop channel closed")
	}
	other := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "others"}
	informer := factory.ForResource(other)
	factory.Start(make(chan struct{}))
	if informer.Informer().HasSynced() {
		t.Error("an informer was started after Shutdown")
	}
	closed := make(chan struct{})
	close(closed)
	if synced := factory.WaitForCacheSync(closed); len(synced) != 1 {
		t.Errorf("WaitForCacheSync after shutdown reports %v, want only the started informer", synced)
	} else if _, ok := synced[other]; ok {
		t.Errorf("WaitForCacheSync reports the informer that never started: %v", synced)
	}
}

// trackerServer serves widgets from a testing.ObjectTracker over the real
// JSON wire format: lists and chunked watch streams.
func trackerServer(t *testing.T, tracker clienttesting.ObjectTracker) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/apis/example.com/v1/widgets" {
			http.Error(w, "unexpected path "+r.URL.Path, http.StatusNotFound)
			return
		}
		q := r.URL.Query()
		opts := metav1.ListOptions{ResourceVersion: q.Get("resourceVersion"), LabelSelector: q.Get("labelSelector")}
		w.Header().Set("Content-Type", "application/json")
		if q.Get("watch") != "true" {
			list, err := tracker.List(widgetsGVR, widgetsGVR.GroupVersion().WithKind("Widget"), "", opts)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			json.NewEncoder(w).Encode(list)
			return
		}
		// A watch-list request (sendInitialEvents=true) first gets the
		// current objects as ADDED events and a bookmark marking their end.
		var initial []interface{}
		if q.Get("sendInitialEvents") == "true" {
			list, err := tracker.List(widgetsGVR, widgetsGVR.GroupVersion().WithKind("Widget"), "", opts)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			ul := list.(*unstructured.UnstructuredList)
			for i := range ul.Items {
				initial = append(initial, map[string]interface{}{"type": "ADDED", "object": &ul.Items[i]})
			}
			bookmark := widget("", "", "")
			bookmark.SetLabels(nil)
			bookmark.SetResourceVersion(ul.GetResourceVersion())
			bookmark.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
			initial = append(initial, map[string]interface{}{"type": "BOOKMARK", "object": bookmark})
			opts.ResourceVersion = ul.GetResourceVersion()
		}
		watcher, err := tracker.Watch(widgetsGVR, "", opts)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer watcher.Stop()
		w.WriteHeader(http.StatusOK)
		enc := json.NewEncoder(w)
		for _, ev := range initial {
			enc.Encode(ev)
		}
		w.(http.Flusher).Flush()
		for {
			select {
			case ev, ok := <-watcher.ResultChan():
				if !ok {
					return
				}
				raw, err := json.Marshal(ev.Object)
				if err != nil {
					t.Errorf("encoding %T: %v", ev.Object, err)
					return
				}
				enc.Encode(map[string]interface{}{"type": ev.Type, "object": json.RawMessage(raw)})
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestInformerOverTheWire(t *testing.T) {
	scheme := runtime.NewScheme()
	tracker := clienttesting.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	if err := tracker.Add(widget("ns", "a", "web")); err != nil {
		t.Fatal(err)
	}
	srv := trackerServer(t, tracker)
	client, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}

	generic := NewFilteredDynamicInformer(client, widgetsGVR, "", 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, nil)
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
	if !cache.WaitForCacheSync(ctx.Done(), generic.Informer().HasSynced) {
		t.Fatal("cache never synced")
	}
	expectEvents(t, events, event{kind: "add", name: "ns/a"})

	for i := 0; i < 3; i++ {
		if err := tracker.Create(widgetsGVR, widget("ns", fmt.Sprintf("w%d", i), "db"), "ns"); err != nil {
			t.Fatal(err)
		}
	}
	updated := widget("ns", "a", "changed")
	if err := tracker.Update(widgetsGVR, updated, "ns"); err != nil {
		t.Fatal(err)
	}
	if err := tracker.Delete(widgetsGVR, "ns", "w1"); err != nil {
		t.Fatal(err)
	}
	expectEvents(t, events,
		event{kind: "add", name: "ns/w0"}, event{kind: "add", name: "ns/w1"}, event{kind: "add", name: "ns/w2"},
		event{kind: "update", name: "ns/a"}, event{kind: "delete", name: "ns/w1"})

	got, err := generic.Lister().ByNamespace("ns").List(labels.SelectorFromSet(labels.Set{"app": "db"}))
	if err != nil || len(got) != 2 {
		t.Errorf("lister: %d objects, %v", len(got), err)
	}
}
