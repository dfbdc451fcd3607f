package cache

import (
	"context"
	"fmt"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

func TestReflectorWatchListRestartsAfterIncompleteStream(t *testing.T) {
	end := pod("", "", "7", nil)
	end.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	tests := []struct {
		name string
		// first is the initial watch-list stream, closed by the server
		// before the initial-events-end bookmark.
		first []watch.Event
	}{
		{name: "closed after one object", first: []watch.Event{{Type: watch.Added, Object: pod("ns", "a", "5", nil)}}},
		{name: "closed after two objects", first: []watch.Event{
			{Type: watch.Added, Object: pod("ns", "a", "5", nil)},
			{Type: watch.Added, Object: pod("ns", "stale", "6", nil)},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lw := &scriptedLW{
				list: func(int, metav1.ListOptions) (runtime.Object, error) {
					return nil, apierrors.NewInternalError(fmt.Errorf("list must not be called"))
				},
				watch: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
					switch call {
					case 1:
						w := watch.NewFakeWithChanSize(len(tc.first), false)
						for _, e := range tc.first {
							w.Action(e.Type, e.Object)
						}
						w.Stop()
						return w, nil
					case 2:
						w := watch.NewFakeWithChanSize(2, false)
						w.Add(pod("ns", "a", "5", nil))
						w.Action(watch.Bookmark, end)
						return w, nil
					}
					return watch.NewFake(), nil
				},
			}
			store := NewStore(MetaNamespaceKeyFunc)
			r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
			if !r.useWatchList {
				t.Skip("WatchListClient feature disabled in this environment")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			done := make(chan struct{})
			go func() {
				defer close(done)
				r.RunWithContext(ctx)
			}()
			defer func() { cancel(); <-done }()

			waitUntil(t, "second watch-list", func() bool { return r.LastSyncResourceVersion() == "7" })
			lists, watches := lw.recorded()
			if len(lists) != 0 {
				t.Errorf("reflector fell back to list: %v", lists)
			}
			if len(watches) < 2 || watches[1].SendInitialEvents == nil || !*watches[1].SendInitialEvents {
				t.Errorf("second request is not a watch-list: %+v", watches)
			}
			if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/a]" {
				t.Errorf("store keys = %v, want [ns/a]", keys)
			}
		})
	}
}

func TestReflectorStopsDuringBlockedList(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	listing := make(chan struct{}, 1)
	lw := &scriptedLW{
		noWatchList: true,
		// The list ignores cancellation, as old ListFuncs do.
		list: func(int, metav1.ListOptions) (runtime.Object, error) {
			listing <- struct{}{}
			<-release
			return podList("1", ""), nil
		},
		watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}
	r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: fastBackoff()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	select {
	case <-listing:
	case <-time.After(10 * time.Second):
		t.Fatal("list never called")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reflector did not stop while its list was blocked")
	}
}
