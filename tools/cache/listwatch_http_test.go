package cache

import (
	"context"
	"net/http/httptest"
	"net/url"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
)

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
