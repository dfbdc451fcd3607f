package cache

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"
)

func TestReflectorWatchList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
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
		r.useWatchList = true // whatever the feature gate's default
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "streamed update", func() bool { return r.LastSyncResourceVersion() == "10" })
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
	})
}

func TestReflectorWatchListFallsBackToList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
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
		settled(t, "list", func() bool { return len(store.ListKeys()) == 1 })
		settled(t, "watch", func() bool { _, w := lw.recorded(); return len(w) >= 1 })
	})
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

// TestReflectorWatchListRestartsStalledStream: a stream that goes silent
// before its initial events are complete is given up after the stall
// timeout and streamed again from scratch.
func TestReflectorWatchListRestartsStalledStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := testingclock.NewFakeClock(time.Now())
		stalled := watch.NewFakeWithChanSize(1, false)
		stalled.Add(pod("ns", "half", "3", nil))
		complete := watch.NewFakeWithChanSize(2, false)
		complete.Add(pod("ns", "a", "5", nil))
		complete.Action(watch.Bookmark, initialEventsEnd("6"))
		lw := &scriptedLW{
			list: func(int, metav1.ListOptions) (runtime.Object, error) {
				return nil, errors.New("list must not be called")
			},
			watch: func(call int, _ metav1.ListOptions) (watch.Interface, error) {
				switch call {
				case 1:
					return &networkStream{Interface: stalled}, nil
				case 2:
					return &networkStream{Interface: complete}, nil
				}
				return watch.NewFake(), nil
			},
		}
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Clock: clk})
		r.useWatchList = true
		r.stallTimeout = time.Minute
		r.stallClock = clk
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "the first stream's event and stall timer", func() bool {
			_, w := lw.recorded()
			return len(w) == 1 && len(stalled.ResultChan()) == 0 && clk.HasWaiters()
		})
		clk.Step(time.Minute)
		settled(t, "the second stream", func() bool { return r.LastSyncResourceVersion() == "6" })
		if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/a]" {
			t.Errorf("store keys %v: the stalled stream's events leaked", keys)
		}
		_, watches := lw.recorded()
		if watches[1].ResourceVersion != "" || watches[1].SendInitialEvents == nil {
			t.Errorf("second stream options %+v", watches[1])
		}
		if !stalled.IsStopped() || r.health.stalledWatches.Load() != 1 {
			t.Errorf("stalled stream stopped=%v, counted %d", stalled.IsStopped(), r.health.stalledWatches.Load())
		}
	})
}

func TestReflectorWatchListRetries(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		wantFrom string // resource version of the retried stream
	}{
		{name: "an expired version retries with a consistent read", err: apierrors.NewResourceExpired("too old"), wantFrom: ""},
		{name: "a too large version retries with a consistent read", err: tooLargeResourceVersion(20, 10), wantFrom: ""},
		{name: "throttling retries from the same version", err: apierrors.NewTooManyRequests("slow down", 1), wantFrom: "20"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				done := watch.NewFakeWithChanSize(1, false)
				done.Action(watch.Bookmark, initialEventsEnd("30"))
				lw := &scriptedLW{
					list: func(int, metav1.ListOptions) (runtime.Object, error) {
						return nil, errors.New("list must not be called")
					},
					watch: func(call int, _ metav1.ListOptions) (watch.Interface, error) {
						switch call {
						case 1:
							return nil, tc.err
						case 2:
							return done, nil
						}
						return watch.NewFake(), nil
					},
				}
				r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: fastBackoff()})
				r.useWatchList = true
				r.versions.reached("20")
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go r.RunWithContext(ctx)
				time.Sleep(fastBackoff().Cap) // the backoff before a retry
				settled(t, "the retried stream", func() bool { return r.LastSyncResourceVersion() == "30" })
				_, watches := lw.recorded()
				if watches[0].ResourceVersion != "20" || watches[1].ResourceVersion != tc.wantFrom {
					t.Errorf("streams from %q then %q, want 20 then %q", watches[0].ResourceVersion, watches[1].ResourceVersion, tc.wantFrom)
				}
				if r.versions.position().unavailable {
					t.Error("version still marked unavailable after a successful stream")
				}
			})
		})
	}
}

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
			synctest.Test(t, func(t *testing.T) {
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
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				done := make(chan struct{})
				go func() {
					defer close(done)
					r.RunWithContext(ctx)
				}()
				defer func() { cancel(); <-done }()

				settled(t, "second watch-list", func() bool { return r.LastSyncResourceVersion() == "7" })
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
		})
	}
}
