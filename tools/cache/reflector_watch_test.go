package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
)

func TestReflectorIgnoresUnexpectedTypes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fw := watch.NewFakeWithChanSize(3, false)
		fw.Add(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", ResourceVersion: "2"}})
		fw.Add(pod("ns", "p", "3", nil))
		lw := &scriptedLW{noWatchList: true,
			list:  func(int, metav1.ListOptions) (runtime.Object, error) { return podList("1", ""), nil },
			watch: func(int, metav1.ListOptions) (watch.Interface, error) { return fw, nil },
		}
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "pod", func() bool { return r.LastSyncResourceVersion() == "3" })
		if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/p]" {
			t.Errorf("store keys = %v", keys)
		}
	})
}

func TestReflectorResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		resyncs := 0
		store := &FakeCustomStore{ResyncFunc: func() error { mu.Lock(); resyncs++; mu.Unlock(); return nil }}
		lw := &scriptedLW{noWatchList: true,
			list:  func(int, metav1.ListOptions) (runtime.Object, error) { return podList("1", ""), nil },
			watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
		}
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{ResyncPeriod: 10 * time.Millisecond})
		allow := false
		r.ShouldResync = func() bool { mu.Lock(); defer mu.Unlock(); allow = !allow; return allow }
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		// Five resync periods: ShouldResync allows the first, third and
		// fifth.
		time.Sleep(55 * time.Millisecond)
		settled(t, "three resyncs", func() bool { mu.Lock(); defer mu.Unlock(); return resyncs == 3 })
	})
}

func TestVeryShortWatchError(t *testing.T) {
	lw := &scriptedLW{noWatchList: true,
		list: func(int, metav1.ListOptions) (runtime.Object, error) { return podList("1", ""), nil },
		watch: func(int, metav1.ListOptions) (watch.Interface, error) {
			fw := watch.NewFake()
			fw.Stop() // closes at once, without events
			return fw, nil
		},
	}
	r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{})
	w, _ := lw.Watch(metav1.ListOptions{})
	_, err := r.newWatchStream(w, NewStore(MetaNamespaceKeyFunc), time.Now(), nil).applyNext(context.Background())
	var short *VeryShortWatchError
	if !errors.As(err, &short) {
		t.Fatalf("err = %v, want VeryShortWatchError", err)
	}
}

// endedWatch returns a watch that delivers events and then closes.
func endedWatch(events ...watch.Event) watch.Interface {
	w := watch.NewFakeWithChanSize(len(events), false)
	for _, e := range events {
		w.Action(e.Type, e.Object)
	}
	w.Stop()
	return w
}

func errorEvent(err *apierrors.StatusError) watch.Event {
	return watch.Event{Type: watch.Error, Object: &err.ErrStatus}
}

// TestReflectorWatchOutcomes: how the end of a watch decides between
// reopening the watch where it left off and relisting.
func TestReflectorWatchOutcomes(t *testing.T) {
	added := watch.Event{Type: watch.Added, Object: pod("ns", "b", "11", nil)}
	tests := []struct {
		name string
		// first answers the first watch request.
		first          func() (watch.Interface, error)
		retryInternal  bool
		wantRelist     bool
		wantReopenFrom string
	}{
		{name: "a clean end reopens from the last version", first: func() (watch.Interface, error) { return endedWatch(added), nil }, wantReopenFrom: "11"},
		{name: "an expired watch relists", first: func() (watch.Interface, error) {
			return endedWatch(added, errorEvent(apierrors.NewResourceExpired("too old"))), nil
		}, wantRelist: true},
		{name: "throttling backs off and reopens", first: func() (watch.Interface, error) {
			return endedWatch(added, errorEvent(apierrors.NewTooManyRequests("slow down", 1))), nil
		}, wantReopenFrom: "11"},
		{name: "throttled opening backs off and retries", first: func() (watch.Interface, error) {
			return nil, apierrors.NewTooManyRequests("slow down", 1)
		}, wantReopenFrom: "10"},
		{name: "an internal error reopens within the retry window", retryInternal: true, first: func() (watch.Interface, error) {
			return endedWatch(added, errorEvent(apierrors.NewInternalError(errors.New("boom")))), nil
		}, wantReopenFrom: "11"},
		{name: "an internal error relists without a retry window", first: func() (watch.Interface, error) {
			return endedWatch(added, errorEvent(apierrors.NewInternalError(errors.New("boom")))), nil
		}, wantRelist: true},
		{name: "a failed opening relists", first: func() (watch.Interface, error) {
			return nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no"))
		}, wantRelist: true},
		{name: "a very short watch relists", first: func() (watch.Interface, error) { return endedWatch(), nil }, wantRelist: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				lw := &scriptedLW{noWatchList: true,
					list: func(int, metav1.ListOptions) (runtime.Object, error) {
						return podList("10", "", pod("ns", "a", "10", nil)), nil
					},
					watch: func(call int, _ metav1.ListOptions) (watch.Interface, error) {
						if call == 1 {
							return tc.first()
						}
						return watch.NewFake(), nil
					},
				}
				r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: fastBackoff()})
				r.setWatchErrorHandler(func(context.Context, *Reflector, error) {})
				if tc.retryInternal {
					r.MaxInternalErrorRetryDuration = time.Hour
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go r.RunWithContext(ctx)
				time.Sleep(fastBackoff().Cap) // any backoff before the second watch
				settled(t, "second watch", func() bool { _, w := lw.recorded(); return len(w) >= 2 })
				lists, watches := lw.recorded()
				if relisted := len(lists) > 1; relisted != tc.wantRelist {
					t.Errorf("relisted = %v (%d lists)", relisted, len(lists))
				}
				if !tc.wantRelist && watches[1].ResourceVersion != tc.wantReopenFrom {
					t.Errorf("reopened from %q, want %q", watches[1].ResourceVersion, tc.wantReopenFrom)
				}
			})
		})
	}
}

// TestReflectorVersionsAfterSyntheticAdds: a watch from "" starts with
// Added events in no version order; versions are passed on only from the
// first other event.
func TestReflectorVersionsAfterSyntheticAdds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{noWatchList: true,
			list: func(int, metav1.ListOptions) (runtime.Object, error) { return podList("", ""), nil },
			watch: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
				if call > 1 {
					return watch.NewFake(), nil
				}
				return endedWatch(
					watch.Event{Type: watch.Added, Object: pod("ns", "a", "5", nil)},
					watch.Event{Type: watch.Added, Object: pod("ns", "b", "3", nil)},
					watch.Event{Type: watch.Modified, Object: pod("ns", "a", "7", nil)},
					watch.Event{Type: watch.Added, Object: pod("ns", "c", "8", nil)},
				), nil
			},
		}
		store := &versionRecorder{Store: NewStore(MetaNamespaceKeyFunc)}
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		go r.RunWithContext(ctx)
		settled(t, "reopened watch", func() bool { _, w := lw.recorded(); return len(w) == 2 })
		cancel()
		_, watches := lw.recorded()
		if watches[0].ResourceVersion != "" || watches[1].ResourceVersion != "8" {
			t.Errorf("watched from %q then %q", watches[0].ResourceVersion, watches[1].ResourceVersion)
		}
		if fmt.Sprint(store.versions) != "[7 8]" {
			t.Errorf("versions passed on: %v, want [7 8]", store.versions)
		}
		if len(store.ListKeys()) != 3 {
			t.Errorf("store keys %v", store.ListKeys())
		}
	})
}

func TestReflectorAppliesEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fw := watch.NewFakeWithChanSize(10, false)
		lw := &scriptedLW{noWatchList: true,
			list: func(int, metav1.ListOptions) (runtime.Object, error) {
				return podList("10", "", pod("ns", "a", "10", nil)), nil
			},
			watch: func(int, metav1.ListOptions) (watch.Interface, error) { return fw, nil },
		}
		store := &bookmarkRecorder{Store: NewStore(MetaNamespaceKeyFunc)}
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "list", func() bool { return r.LastSyncResourceVersion() == "10" })
		fw.Add(pod("ns", "bad", "11", nil))               // the store refuses: reported, version kept
		fw.Action("STRANGE", pod("ns", "x", "12", nil))   // unknown type: reported
		fw.Modify(pod("ns", "a", "13", nil))              // applied
		fw.Action(watch.Bookmark, pod("", "", "14", nil)) // passed to the store
		fw.Add(&metav1.Status{})                          // wrong type: skipped
		fw.Delete(pod("ns", "a", "15", nil))              // applied
		settled(t, "events", func() bool { return r.LastSyncResourceVersion() == "15" })
		if keys := store.ListKeys(); len(keys) != 0 {
			t.Errorf("store keys %v", keys)
		}
		store.mu.Lock()
		defer store.mu.Unlock()
		if fmt.Sprint(store.bookmarks) != "[14]" {
			t.Errorf("bookmarks %v", store.bookmarks)
		}
	})
}

func TestReflectorFiltersUnstructuredByKind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		obj := func(kind, name, rv string) *unstructured.Unstructured {
			u := &unstructured.Unstructured{}
			u.SetAPIVersion("example.com/v1")
			u.SetKind(kind)
			u.SetNamespace("ns")
			u.SetName(name)
			u.SetResourceVersion(rv)
			return u
		}
		fw := watch.NewFakeWithChanSize(2, false)
		fw.Add(obj("Other", "x", "2"))
		fw.Add(obj("Widget", "w", "3"))
		lw := &scriptedLW{noWatchList: true,
			list: func(int, metav1.ListOptions) (runtime.Object, error) {
				return &unstructured.UnstructuredList{Object: map[string]interface{}{"metadata": map[string]interface{}{"resourceVersion": "1"}}}, nil
			},
			watch: func(int, metav1.ListOptions) (watch.Interface, error) { return fw, nil },
		}
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, obj("Widget", "", ""), store, ReflectorOptions{Backoff: fastBackoff()})
		if r.TypeDescription() != "example.com/v1, Kind=Widget" {
			t.Errorf("TypeDescription %q", r.TypeDescription())
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "widget", func() bool { return r.LastSyncResourceVersion() == "3" })
		if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/w]" {
			t.Errorf("store keys %v", keys)
		}
	})
}

// TestReflectorResyncFailureEndsWatch: a failing Resync ends the watch, and
// ListAndWatch returns so that the reflector relists.
func TestReflectorResyncFailureEndsWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fw := watch.NewFake()
		lw := &scriptedLW{noWatchList: true,
			list:  func(int, metav1.ListOptions) (runtime.Object, error) { return podList("1", ""), nil },
			watch: func(int, metav1.ListOptions) (watch.Interface, error) { return fw, nil },
		}
		store := &FakeCustomStore{ResyncFunc: func() error { return errors.New("resync failed") }}
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{ResyncPeriod: time.Minute})
		done := make(chan error)
		start := time.Now()
		go func() { done <- r.ListAndWatchWithContext(context.Background()) }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ListAndWatch = %v, want nil (relist)", err)
			}
			if d := time.Since(start); d != time.Minute {
				t.Errorf("the watch ended after %v, want at the first resync (1m)", d)
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("the watch went on after the resync failed")
		}
		if !fw.IsStopped() {
			t.Error("watch not stopped")
		}
	})
}
