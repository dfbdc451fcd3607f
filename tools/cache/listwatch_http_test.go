package cache

import (
	"context"
	"net/url"
	"testing"
	"testing/synctest"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
)

// The tests of this file run a REST client against podAPIServer over
// in-memory connections, inside synctest bubbles.

func TestInformerOverHTTPListAndWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := newPodAPIServer(3)
		updated := api.pods[0].DeepCopy()
		updated.ResourceVersion = "101"
		updated.Labels = map[string]string{"changed": "yes"}
		api.events = []metav1.WatchEvent{watchEvent(watch.Modified, updated)}
		n, closeNet := newPipeNet(api)
		defer closeNet()

		lw := NewListWatchFromClient(podClient(t, n), "pods", "ns", fields.Everything())
		inf := NewSharedInformer(lw, &v1.Pod{}, 0)
		stop := startInformer(t, inf)
		defer stop()
		settled(t, "the watched update is cached", func() bool {
			obj, ok, _ := inf.GetStore().GetByKey("ns/p0")
			return ok && obj.(*v1.Pod).ResourceVersion == "101"
		})
		if n := len(inf.GetStore().ListKeys()); n != 3 {
			t.Errorf("cached %d pods", n)
		}
		if inf.LastSyncResourceVersion() != "101" {
			t.Errorf("LastSyncResourceVersion = %q", inf.LastSyncResourceVersion())
		}
	})
}

func TestReflectorPaginatesOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := newPodAPIServer(5)
		n, closeNet := newPipeNet(api)
		defer closeNet()
		lw := NewFilteredListWatchFromClient(podClient(t, n), "pods", "ns", func(o *metav1.ListOptions) {
			o.LabelSelector = "app=web"
		})
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(ToListWatcherWithWatchListSemantics(lw, unsupportedClient{}), &v1.Pod{}, store, ReflectorOptions{})
		r.WatchListPageSize = 2
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "all five pods listed", func() bool { return len(store.ListKeys()) == 5 })
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
	})
}

func TestWatchListOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := newPodAPIServer(2)
		api.watchList = true
		n, closeNet := newPipeNet(api)
		defer closeNet()
		lw := NewListWatchFromClient(podClient(t, n), "pods", "ns", fields.Everything())
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{})
		if !r.useWatchList {
			t.Skip("WatchListClient disabled")
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "the streamed list is stored", func() bool {
			return len(store.ListKeys()) == 2 && r.LastSyncResourceVersion() == "100"
		})
		api.mu.Lock()
		defer api.mu.Unlock()
		for _, q := range api.requests {
			if v, _ := url.ParseQuery(q); v.Get("watch") == "" {
				t.Errorf("unexpected list request %q: the server supports watch-list", q)
			}
		}
	})
}
