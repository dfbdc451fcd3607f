package cache

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/rest"
)

// podAPIServer serves /api/v1/namespaces/ns/pods in the real JSON wire
// format: paginated lists, watch streams and metav1.Status errors.
type podAPIServer struct {
	mu       sync.Mutex
	pods     []v1.Pod
	rv       int
	requests []string // raw query strings
	// watchList makes the server support sendInitialEvents.
	watchList bool
	// events are streamed to the first plain watch.
	events []metav1.WatchEvent
}

func (s *podAPIServer) writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(&metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: int32(code), Reason: reason, Message: msg,
	})
}

func watchEvent(t watch.EventType, obj runtime.Object) metav1.WatchEvent {
	raw, _ := json.Marshal(obj)
	return metav1.WatchEvent{Type: string(t), Object: runtime.RawExtension{Raw: raw}}
}

func (s *podAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.RawQuery)
	s.mu.Unlock()
	if r.URL.Path != "/api/v1/namespaces/ns/pods" {
		s.writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "no such path "+r.URL.Path)
		return
	}
	q := r.URL.Query()
	if q.Get("watch") == "true" {
		s.serveWatch(w, q.Get("sendInitialEvents") == "true")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	offset := 0
	if c := q.Get("continue"); c != "" {
		offset, _ = strconv.Atoi(c)
	}
	end := len(s.pods)
	list := &v1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}}
	list.ResourceVersion = strconv.Itoa(s.rv)
	if limit, _ := strconv.Atoi(q.Get("limit")); limit > 0 && offset+limit < end {
		end = offset + limit
		list.Continue = strconv.Itoa(end)
	}
	list.Items = s.pods[offset:end]
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

func (s *podAPIServer) serveWatch(w http.ResponseWriter, initial bool) {
	s.mu.Lock()
	if initial && !s.watchList {
		s.mu.Unlock()
		s.writeStatus(w, http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, "sendInitialEvents is forbidden")
		return
	}
	var events []metav1.WatchEvent
	if initial {
		for i := range s.pods {
			events = append(events, watchEvent(watch.Added, &s.pods[i]))
		}
		end := &v1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{
			ResourceVersion: strconv.Itoa(s.rv),
			Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
		}}
		events = append(events, watchEvent(watch.Bookmark, end))
	}
	events = append(events, s.events...)
	s.events = nil
	s.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	for _, e := range events {
		_ = enc.Encode(&e)
	}
	w.(http.Flusher).Flush()
	// Keep the stream open like a real server until the client leaves.
	<-w.(http.CloseNotifier).CloseNotify()
}

func podClient(t *testing.T, url string) *rest.RESTClient {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := v1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	codecs := serializer.NewCodecFactory(scheme)
	client, err := rest.RESTClientFor(&rest.Config{
		Host:    url,
		APIPath: "/api",
		ContentConfig: rest.ContentConfig{
			GroupVersion:         &v1.SchemeGroupVersion,
			NegotiatedSerializer: codecs.WithoutConversion(),
		},
	})
	if err != nil {
		t.Fatalf("RESTClientFor: %v", err)
	}
	return client
}

func newPodAPIServer(n int) *podAPIServer {
	s := &podAPIServer{rv: 100}
	for i := 0; i < n; i++ {
		s.pods = append(s.pods, v1.Pod{
			TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p" + strconv.Itoa(i), ResourceVersion: strconv.Itoa(10 + i)},
		})
	}
	return s
}

func TestInformerOverHTTPListAndWatch(t *testing.T) {
	api := newPodAPIServer(3)
	updated := api.pods[0].DeepCopy()
	updated.ResourceVersion = "101"
	updated.Labels = map[string]string{"changed": "yes"}
	api.events = []metav1.WatchEvent{watchEvent(watch.Modified, updated)}
	srv := httptest.NewServer(api)
	defer srv.Close()

	lw := NewListWatchFromClient(podClient(t, srv.URL), "pods", "ns", fields.Everything())
	inf := NewSharedInformer(lw, &v1.Pod{}, 0)
	stop := startInformer(t, inf)
	defer stop()
	waitUntil(t, "watched update", func() bool {
		obj, ok, _ := inf.GetStore().GetByKey("ns/p0")
		return ok && obj.(*v1.Pod).ResourceVersion == "101"
	})
	if n := len(inf.GetStore().ListKeys()); n != 3 {
		t.Errorf("cached %d pods", n)
	}
	if inf.LastSyncResourceVersion() != "101" {
		t.Errorf("LastSyncResourceVersion = %q", inf.LastSyncResourceVersion())
	}
}

func TestReflectorPaginatesOverHTTP(t *testing.T) {
	api := newPodAPIServer(5)
	srv := httptest.NewServer(api)
	defer srv.Close()
	lw := NewFilteredListWatchFromClient(podClient(t, srv.URL), "pods", "ns", func(o *metav1.ListOptions) {
		o.LabelSelector = "app=web"
	})
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflectorWithOptions(ToListWatcherWithWatchListSemantics(lw, unsupportedClient{}), &v1.Pod{}, store, ReflectorOptions{})
	r.WatchListPageSize = 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.RunWithContext(ctx)
	waitUntil(t, "list", func() bool { return len(store.ListKeys()) == 5 })
	api.mu.Lock()
	defer api.mu.Unlock()
	pages := 0
	for _, q := range api.requests {
		if v, _ := url.ParseQuery(q); v.Get("watch") == "" {
			pages++
			if v.Get("labelSelector") != "app=web" || v.Get("limit") != "2" {
				t.Errorf("list query %q lacks selector or limit", q)
			}
		}
	}
	if pages != 3 {
		t.Errorf("listed in %d pages, want 3", pages)
	}
}

func TestWatchListOverHTTP(t *testing.T) {
	api := newPodAPIServer(2)
	api.watchList = true
	srv := httptest.NewServer(api)
	defer srv.Close()
	lw := NewListWatchFromClient(podClient(t, srv.URL), "pods", "ns", fields.Everything())
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{})
	if !r.useWatchList {
		t.Skip("WatchListClient disabled")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.RunWithContext(ctx)
	waitUntil(t, "streamed list", func() bool { return len(store.ListKeys()) == 2 && r.LastSyncResourceVersion() == "100" })
	api.mu.Lock()
	defer api.mu.Unlock()
	for _, q := range api.requests {
		if v, _ := url.ParseQuery(q); v.Get("watch") == "" {
			t.Errorf("unexpected list request %q: the server supports watch-list", q)
		}
	}
}

type unsupportedClient struct{}

func (unsupportedClient) IsWatchListSemanticsUnSupported() bool { return true }
