package cache

import (
	"context"
	"errors"
	"testing"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

func TestReflectorWatchList(t *testing.T) {
	stream := watch.NewFakeWithChanSize(10, false)
	stream.Add(pod("ns", "a", "3", nil))
	stream.Add(pod("ns", "b", "4", nil))
	end := pod("", "", "9", nil)
	end.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	stream.Action(watch.Bookmark, end)
	stream.Modify(pod("ns", "a", "10", nil))

	lw := &scriptedLW{
		list: func(int, metav1.ListOptions) (runtime.Object, error) {
			return nil, errors.New("list must not be called")
		},
		watch: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
			if call == 1 {
				return stream, nil
			}
			return watch.NewFake(), nil
		},
	}
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
	if !r.useWatchList {
		t.Skip("WatchListClient feature disabled in this environment")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.RunWithContext(ctx)
	waitUntil(t, "streamed update", func() bool { return r.LastSyncResourceVersion() == "10" })
	if obj, ok, _ := store.GetByKey("ns/a"); !ok || obj.(*v1.Pod).ResourceVersion != "10" {
		t.Errorf("ns/a = %v", obj)
	}
	if _, ok, _ := store.GetByKey("ns/b"); !ok {
		t.Error("ns/b missing")
	}
	lists, watches := lw.recorded()
	if len(lists) != 0 {
		t.Errorf("unexpected list calls: %v", lists)
	}
	w := watches[0]
	if w.SendInitialEvents == nil || !*w.SendInitialEvents || w.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan || !w.AllowWatchBookmarks {
		t.Errorf("watch-list options = %+v", w)
	}
}

func TestReflectorWatchListFallsBackToList(t *testing.T) {
	lw := &scriptedLW{
		list: func(int, metav1.ListOptions) (runtime.Object, error) {
			return podList("5", "", pod("ns", "a", "5", nil)), nil
		},
		watch: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
			if opts.SendInitialEvents != nil {
				return nil, apierrors.NewBadRequest("sendInitialEvents unsupported")
			}
			return watch.NewFake(), nil
		},
	}
	store := NewStore(MetaNamespaceKeyFunc)
	r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.RunWithContext(ctx)
	waitUntil(t, "list", func() bool { return len(store.ListKeys()) == 1 })
	waitUntil(t, "watch", func() bool { _, w := lw.recorded(); return len(w) >= 1 })
}

func TestReflectorHonoursWatchListUnsupported(t *testing.T) {
	lw := &scriptedLW{noWatchList: true}
	r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{})
	if r.useWatchList {
		t.Error("reflector streams although the ListerWatcher cannot")
	}
	wrapped := ToListWatcherWithWatchListSemantics(&ListWatch{}, lw)
	r = NewReflectorWithOptions(wrapped, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{})
	if r.useWatchList {
		t.Error("ToListWatcherWithWatchListSemantics lost the client's answer")
	}
}
