package informers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/informers"
	informerscorev1 "github.com/kubeclient/client-go/informers/core/v1"
	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/cache"
)

// watchEvent is one event of a JSON watch stream.
type watchEvent struct {
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

// fakeResource serves the list and watch of one resource in the JSON wire
// format: a list returns the initial objects, a watch (with or without
// sendInitialEvents) streams the initial objects when asked to and then
// whatever the test pushes to events.
type fakeResource struct {
	listKind, apiVersion string
	initial              []runtime.Object
	events               chan watchEvent

	mu       sync.Mutex
	requests []url.Values // query of every list and watch request
}

func (f *fakeResource) record(q url.Values) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, q)
}

func (f *fakeResource) queries() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.requests...)
}

func mustJSON(t *testing.T, obj any) json.RawMessage {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func (f *fakeResource) serve(t *testing.T, w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.record(q)
	w.Header().Set("Content-Type", "application/json")
	if q.Get("watch") != "true" {
		items := make([]json.RawMessage, 0, len(f.initial))
		for _, obj := range f.initial {
			items = append(items, mustJSON(t, obj))
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"kind": f.listKind, "apiVersion": f.apiVersion,
			"metadata": map[string]any{"resourceVersion": "10"},
			"items":    items,
		})
		return
	}
	flusher := w.(http.Flusher)
	enc := json.NewEncoder(w)
	w.WriteHeader(http.StatusOK)
	if q.Get("sendInitialEvents") == "true" {
		for _, obj := range f.initial {
			_ = enc.Encode(watchEvent{Type: "ADDED", Object: mustJSON(t, obj)})
		}
		// The bookmark that ends the initial events of a watch list.
		_ = enc.Encode(watchEvent{Type: "BOOKMARK", Object: mustJSON(t, map[string]any{
			"kind": f.listKind[:len(f.listKind)-len("List")], "apiVersion": f.apiVersion,
			"metadata": map[string]any{"resourceVersion": "10", "annotations": map[string]string{metav1.InitialEventsAnnotationKey: "true"}},
		})})
	}
	flusher.Flush()
	for {
		select {
		case ev := <-f.events:
			_ = enc.Encode(ev)
			flusher.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

func configMap(name, rv string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", ResourceVersion: rv},
		Data:       data,
	}
}

func newServer(t *testing.T, routes map[string]*fakeResource) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, ok := routes[r.URL.Path]
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   metav1.StatusFailure, Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound,
				Message: fmt.Sprintf("the server could not find %s", r.URL.Path),
			})
			return
		}
		res.serve(t, w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newClient(t *testing.T, srv *httptest.Server) kubernetes.Interface {
	t.Helper()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// receive waits for one value of ch, failing the test after a generous
// deadline.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

func TestFactoryListWatchAndListers(t *testing.T) {
	configMaps := &fakeResource{
		listKind: "ConfigMapList", apiVersion: "v1",
		initial: []runtime.Object{configMap("a", "5", map[string]string{"k": "1"})},
		events:  make(chan watchEvent),
	}
	replicas := int32(2)
	deployments := &fakeResource{
		listKind: "DeploymentList", apiVersion: "apps/v1",
		initial: []runtime.Object{&appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "7", Labels: map[string]string{"app": "web"}},
			Spec:       appsv1.DeploymentSpec{Replicas: &replicas},
		}},
		events: make(chan watchEvent),
	}
	srv := newServer(t, map[string]*fakeResource{
		"/api/v1/configmaps":        configMaps,
		"/apis/apps/v1/deployments": deployments,
	})
	factory := informers.NewSharedInformerFactory(newClient(t, srv), 0)

	// Typed handlers on the ConfigMap informer.
	added := make(chan *corev1.ConfigMap, 10)
	updated := make(chan *corev1.ConfigMap, 10)
	deleted := make(chan informerscorev1.DeletedConfigMap, 10)
	cms := factory.Core().V1().ConfigMaps()
	if _, err := cms.TypedInformer().AddTypedEventHandler(informerscorev1.ConfigMapHandlerFuncs{
		AddFunc:    func(cm *corev1.ConfigMap) { added <- cm },
		UpdateFunc: func(_, cm *corev1.ConfigMap) { updated <- cm },
		DeleteFunc: func(d informerscorev1.DeletedConfigMap) { deleted <- d },
	}); err != nil {
		t.Fatal(err)
	}
	// An untyped handler on the Deployment informer.
	deploymentAdded := make(chan any, 10)
	if _, err := factory.Apps().V1().Deployments().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { deploymentAdded <- obj },
	}); err != nil {
		t.Fatal(err)
	}
	if a, b := factory.Core().V1().ConfigMaps().Informer(), cms.Informer(); a != b {
		t.Error("the factory returned two informers for ConfigMaps")
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	factory.Start(ctx.Done())
	syncCtx, syncCancel := context.WithTimeout(ctx, 30*time.Second)
	defer syncCancel()
	result := factory.WaitForCacheSyncWithContext(syncCtx)
	if result.Err != nil || len(result.Synced) != 2 {
		t.Fatalf("WaitForCacheSyncWithContext = %+v, want two synced informers", result)
	}
	for typ, ok := range result.Synced {
		if !ok {
			t.Errorf("%v did not sync", typ)
		}
	}

	if cm := receive(t, added, "the add of configmap a"); cm.Name != "a" {
		t.Errorf("added %q, want a", cm.Name)
	}
	if d := receive(t, deploymentAdded, "the add of deployment web").(*appsv1.Deployment); d.Name != "web" {
		t.Errorf("added deployment %q, want web", d.Name)
	}
	got, err := cms.Lister().ConfigMaps("default").Get("a")
	if err != nil || got.Data["k"] != "1" {
		t.Fatalf("Get(a) = %v, %v", got, err)
	}
	if _, err := cms.Lister().ConfigMaps("other").Get("a"); !apierrors.IsNotFound(err) {
		t.Errorf("Get in another namespace: err = %v, want NotFound", err)
	}
	ds, err := factory.Apps().V1().Deployments().Lister().List(labels.SelectorFromSet(labels.Set{"app": "web"}))
	if err != nil || len(ds) != 1 || *ds[0].Spec.Replicas != 2 {
		t.Fatalf("deployment List = %v, %v", ds, err)
	}

	// Watch events reach the handlers and the cache.
	configMaps.events <- watchEvent{Type: "ADDED", Object: mustJSON(t, configMap("b", "11", nil))}
	if cm := receive(t, added, "the add of configmap b"); cm.Name != "b" {
		t.Errorf("added %q, want b", cm.Name)
	}
	configMaps.events <- watchEvent{Type: "MODIFIED", Object: mustJSON(t, configMap("a", "12", map[string]string{"k": "2"}))}
	if cm := receive(t, updated, "the update of configmap a"); cm.Data["k"] != "2" {
		t.Errorf("updated data %v, want k=2", cm.Data)
	}
	if got, err := cms.Lister().ConfigMaps("default").Get("a"); err != nil || got.Data["k"] != "2" {
		t.Errorf("after the update Get(a) = %v, %v", got, err)
	}
	configMaps.events <- watchEvent{Type: "DELETED", Object: mustJSON(t, configMap("b", "13", nil))}
	if d := receive(t, deleted, "the delete of configmap b"); d.GetName() != "b" {
		t.Errorf("deleted %q, want b", d.GetName())
	}
	if _, err := cms.Lister().ConfigMaps("default").Get("b"); !apierrors.IsNotFound(err) {
		t.Errorf("Get(b) after delete: err = %v, want NotFound", err)
	}

	// The generic lookup finds the same shared informer.
	gi, err := factory.ForResource(corev1.SchemeGroupVersion.WithResource("configmaps"))
	if err != nil {
		t.Fatal(err)
	}
	if gi.Informer() != cms.Informer() {
		t.Error("ForResource(configmaps) returned another informer")
	}
	if objs, err := gi.Lister().ByNamespace("default").List(labels.Everything()); err != nil || len(objs) != 1 {
		t.Errorf("generic List = %v, %v; want configmap a only", objs, err)
	}
	if _, err := factory.ForResource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}); err == nil {
		t.Error("ForResource of an unknown resource did not fail")
	}
}

func TestFactoryOptionsReachRequests(t *testing.T) {
	deployments := &fakeResource{listKind: "DeploymentList", apiVersion: "apps/v1", events: make(chan watchEvent)}
	srv := newServer(t, map[string]*fakeResource{"/apis/apps/v1/namespaces/team/deployments": deployments})
	factory := informers.NewSharedInformerFactoryWithOptions(newClient(t, srv), time.Hour,
		informers.WithNamespace("team"),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "tier=front" }),
	)
	informer := factory.Apps().V1().Deployments().Informer()
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	synced := factory.WaitForCacheSync(ctx.Done())
	if len(synced) != 1 || !informer.HasSynced() {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	cancel()
	factory.Shutdown()
	// Start after Shutdown is a no-op.
	factory.Start(make(chan struct{}))

	qs := deployments.queries()
	if len(qs) == 0 {
		t.Fatal("the server saw no request")
	}
	for _, q := range qs {
		if got := q.Get("labelSelector"); got != "tier=front" {
			t.Errorf("request %v: labelSelector = %q, want tier=front", q, got)
		}
	}
	// Objects pass through the factory's transform before reaching the cache.
	transformed := make(chan struct{}, 1)
	deploymentsWithObject := &fakeResource{listKind: "DeploymentList", apiVersion: "apps/v1", events: make(chan watchEvent),
		initial: []runtime.Object{&appsv1.Deployment{TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"}, ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "team", ResourceVersion: "3"}}}}
	srv2 := newServer(t, map[string]*fakeResource{"/apis/apps/v1/namespaces/team/deployments": deploymentsWithObject})
	factory2 := informers.NewSharedInformerFactoryWithOptions(newClient(t, srv2), 0, informers.WithNamespace("team"),
		informers.WithTransform(func(obj any) (any, error) {
			select {
			case transformed <- struct{}{}:
			default:
			}
			return obj, nil
		}))
	factory2.Apps().V1().Deployments().Informer()
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer func() { cancel2(); factory2.Shutdown() }()
	factory2.Start(ctx2.Done())
	receive(t, transformed, "the transform of deployment x")
}
