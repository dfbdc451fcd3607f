package cache

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

func TestReflectorPaginatedListThenWatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fw := watch.NewFake()
		lw := &scriptedLW{
			noWatchList: true,
			list: func(call int, opts metav1.ListOptions) (runtime.Object, error) {
				if opts.Continue == "" {
					return podList("10", "page2", pod("ns", "a", "5", nil)), nil
				}
				return podList("10", "", pod("ns", "b", "6", nil)), nil
			},
			watch: func(call int, opts metav1.ListOptions) (watch.Interface, error) {
				if call == 1 {
					return fw, nil
				}
				return watch.NewFake(), nil
			},
		}
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)

		settled(t, "initial list", func() bool { return len(store.ListKeys()) == 2 })
		lists, _ := lw.recorded()
		if lists[0].ResourceVersion != "0" || lists[0].Limit != 500 {
			t.Errorf("first list options = %+v, want rv=0 limit=500", lists[0])
		}
		if lists[1].Continue != "page2" || lists[1].ResourceVersion != "" {
			t.Errorf("second page options = %+v", lists[1])
		}
		fw.Add(pod("ns", "c", "11", nil))
		fw.Modify(pod("ns", "a", "12", nil))
		fw.Delete(pod("ns", "b", "13", nil))
		fw.Action(watch.Bookmark, pod("", "", "15", nil))
		settled(t, "watch events", func() bool { return r.LastSyncResourceVersion() == "15" })
		if keys := sorted(store.ListKeys()); fmt.Sprint(keys) != "[ns/a ns/c]" {
			t.Errorf("store keys = %v", keys)
		}
		_, watches := lw.recorded()
		w := watches[0]
		if w.ResourceVersion != "10" || !w.AllowWatchBookmarks || w.TimeoutSeconds == nil ||
			*w.TimeoutSeconds < 300 || *w.TimeoutSeconds >= 600 {
			t.Errorf("watch options = %+v", w)
		}
	})
}

func TestReflectorRelistsAfterGone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{noWatchList: true}
		lw.list = func(call int, opts metav1.ListOptions) (runtime.Object, error) {
			switch call {
			case 1:
				return podList("10", "", pod("ns", "a", "5", nil)), nil
			case 2:
				// Relisting at the last version: the server compacted it.
				return nil, apierrors.NewResourceExpired("too old")
			default:
				return podList("30", "", pod("ns", "b", "25", nil)), nil
			}
		}
		lw.watch = func(call int, opts metav1.ListOptions) (watch.Interface, error) {
			if call == 1 {
				fw := watch.NewFakeWithChanSize(2, false)
				fw.Add(pod("ns", "a", "11", nil))
				fw.Error(&apierrors.NewResourceExpired("too old resource version").ErrStatus)
				return fw, nil
			}
			return watch.NewFake(), nil
		}
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		time.Sleep(fastBackoff().Cap) // the backoffs before each relist
		settled(t, "relist", func() bool { return r.LastSyncResourceVersion() == "30" })
		lists, _ := lw.recorded()
		if len(lists) < 3 || lists[1].ResourceVersion != "11" || lists[2].ResourceVersion != "" {
			t.Errorf("list versions: %+v", lists)
		}
		if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/b]" {
			t.Errorf("store keys = %v", keys)
		}
	})
}

func TestReflectorFullListFallbackOnTooLargeResourceVersion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{noWatchList: true}
		lw.list = func(call int, opts metav1.ListOptions) (runtime.Object, error) {
			if opts.ResourceVersion == "0" {
				return nil, tooLargeResourceVersion(0, 0)
			}
			return podList("7", "", pod("ns", "a", "7", nil)), nil
		}
		lw.watch = func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil }
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "list", func() bool { return r.LastSyncResourceVersion() == "7" })
		lists, _ := lw.recorded()
		if lists[1].ResourceVersion != "" {
			t.Errorf("fallback list rv = %q, want a consistent read", lists[1].ResourceVersion)
		}
	})
}

func TestReflectorRelistUsesUnpaginatedListAtKnownVersion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{noWatchList: true}
		lw.list = func(call int, opts metav1.ListOptions) (runtime.Object, error) {
			return podList(strconv.Itoa(10*call), ""), nil
		}
		lw.watch = func(call int, opts metav1.ListOptions) (watch.Interface, error) {
			return nil, errors.New("watch unavailable")
		}
		var handled sync.WaitGroup
		handled.Add(1)
		var once sync.Once
		r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: fastBackoff()})
		r.setWatchErrorHandler(func(context.Context, *Reflector, error) { once.Do(handled.Done) })
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		handled.Wait()
		time.Sleep(fastBackoff().Duration) // the backoff before the relist
		settled(t, "relist", func() bool { l, _ := lw.recorded(); return len(l) >= 2 })
		lists, _ := lw.recorded()
		if lists[1].ResourceVersion != "10" || lists[1].Limit != 0 {
			t.Errorf("relist options = %+v, want rv=10 without limit", lists[1])
		}
	})
}

func TestReflectorListPageSize(t *testing.T) {
	const pagerDefault = 500
	tests := []struct {
		name      string
		lw        ListerWatcher
		pageSize  int64
		paginated bool
		at        string
		want      int64
	}{
		{name: "first list at 0", lw: &scriptedLW{}, at: "0", want: pagerDefault},
		{name: "consistent read", lw: &scriptedLW{}, at: "", want: pagerDefault},
		{name: "list at a known version is served from the watch cache", lw: &scriptedLW{}, at: "12", want: 0},
		{name: "a server that paginated keeps paginating", lw: &scriptedLW{}, paginated: true, at: "12", want: pagerDefault},
		{name: "explicit page size", lw: &scriptedLW{}, pageSize: 7, at: "12", want: 7},
		{name: "chunking disabled", lw: &ListWatch{DisableChunking: true}, pageSize: 7, at: "0", want: 0},
		{name: "chunking disabled behind watch-list semantics", lw: ToListWatcherWithWatchListSemantics(&ListWatch{DisableChunking: true}, &scriptedLW{}), at: "0", want: 0},
	}
	for _, tc := range tests {
		r := NewReflector(tc.lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
		r.WatchListPageSize = tc.pageSize
		r.paginatedResult = tc.paginated
		if got := r.listPageSize(tc.at, pagerDefault); got != tc.want {
			t.Errorf("%s: page size %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestReflectorRemembersPaginatedServer: a list at "0" that came back in
// pages means the server has no watch cache; relists then paginate too.
func TestReflectorRemembersPaginatedServer(t *testing.T) {
	lw := &scriptedLW{noWatchList: true}
	lw.list = func(call int, opts metav1.ListOptions) (runtime.Object, error) {
		if opts.Continue == "" && call == 1 {
			return podList("10", "more", pod("ns", "a", "5", nil)), nil
		}
		return podList("10", ""), nil
	}
	lw.watch = func(int, metav1.ListOptions) (watch.Interface, error) { return nil, errors.New("no watch") }
	r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{})
	for i := 0; i < 2; i++ {
		if err := r.ListAndWatchWithContext(context.Background()); err == nil {
			t.Fatal("ListAndWatch succeeded without a watch")
		}
	}
	lists, _ := lw.recorded()
	if len(lists) != 3 || lists[2].ResourceVersion != "10" || lists[2].Limit == 0 {
		t.Errorf("lists %+v; want the relist at 10 paginated", lists)
	}
}

func TestReflectorListFailures(t *testing.T) {
	tests := []struct {
		name    string
		list    func() (runtime.Object, error)
		store   ReflectorStore
		wantErr string
	}{
		{name: "list error", list: func() (runtime.Object, error) { return nil, errors.New("down") }, wantErr: "failed to list *v1.Pod: down"},
		{name: "not a list", list: func() (runtime.Object, error) { return pod("ns", "a", "1", nil), nil }, wantErr: "must be a list"},
		{
			name:    "store refuses",
			list:    func() (runtime.Object, error) { return podList("1", "", pod("ns", "a", "1", nil)), nil },
			store:   &FakeCustomStore{ReplaceFunc: func([]interface{}, string) error { return errors.New("full") }},
			wantErr: "unable to sync list result: full",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lw := &scriptedLW{noWatchList: true,
				list:  func(int, metav1.ListOptions) (runtime.Object, error) { return tc.list() },
				watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
			}
			store := tc.store
			if store == nil {
				store = NewStore(MetaNamespaceKeyFunc)
			}
			r := NewReflector(lw, &v1.Pod{}, store, 0)
			err := r.ListAndWatchWithContext(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
			if r.LastSyncResourceVersion() != "" {
				t.Error("a failed list moved the reflector's version")
			}
		})
	}
}

func TestReflectorListPanicReachesCaller(t *testing.T) {
	lw := &scriptedLW{noWatchList: true,
		list: func(int, metav1.ListOptions) (runtime.Object, error) { panic("lister bug") },
	}
	r := NewReflector(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
	defer func() {
		if v := recover(); v != "lister bug" {
			t.Errorf("recovered %v, want the lister's panic", v)
		}
	}()
	_ = r.ListAndWatchWithContext(context.Background())
	t.Error("no panic")
}

func TestReflectorStopsDuringBlockedList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
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
	})
}
