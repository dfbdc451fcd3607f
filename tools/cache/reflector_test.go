package cache

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
)

// scriptedLW is a ListerWatcher whose answers are decided by test
// functions; it records every request's options.
type scriptedLW struct {
	mu      sync.Mutex
	lists   []metav1.ListOptions
	watches []metav1.ListOptions

	list  func(call int, opts metav1.ListOptions) (runtime.Object, error)
	watch func(call int, opts metav1.ListOptions) (watch.Interface, error)
	// noWatchList makes the reflector skip watch-list streaming.
	noWatchList bool
}

func (s *scriptedLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	s.lists = append(s.lists, opts)
	n := len(s.lists)
	s.mu.Unlock()
	return s.list(n, opts)
}

func (s *scriptedLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	s.watches = append(s.watches, opts)
	n := len(s.watches)
	s.mu.Unlock()
	return s.watch(n, opts)
}

func (s *scriptedLW) IsWatchListSemanticsUnSupported() bool { return s.noWatchList }

func (s *scriptedLW) recorded() ([]metav1.ListOptions, []metav1.ListOptions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]metav1.ListOptions(nil), s.lists...), append([]metav1.ListOptions(nil), s.watches...)
}

func podList(rv string, cont string, pods ...*v1.Pod) *v1.PodList {
	l := &v1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: cont}}
	for _, p := range pods {
		l.Items = append(l.Items, *p)
	}
	return l
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, 10*time.Second, true,
		func(context.Context) (bool, error) { return cond(), nil }); err != nil {
		t.Fatalf("timed out waiting for %s", what)
	}
}

func fastBackoff() *wait.Backoff {
	return &wait.Backoff{Duration: time.Millisecond, Cap: 5 * time.Millisecond, Steps: 5, Factor: 2}
}

func TestReflectorPaginatedListThenWatch(t *testing.T) {
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

	waitUntil(t, "initial list", func() bool { return len(store.ListKeys()) == 2 })
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
	waitUntil(t, "watch events", func() bool { return r.LastSyncResourceVersion() == "15" })
	if keys := sorted(store.ListKeys()); fmt.Sprint(keys) != "[ns/a ns/c]" {
		t.Errorf("store keys = %v", keys)
	}
	_, watches := lw.recorded()
	w := watches[0]
	if w.ResourceVersion != "10" || !w.AllowWatchBookmarks || w.TimeoutSeconds == nil ||
		*w.TimeoutSeconds < 300 || *w.TimeoutSeconds >= 600 {
		t.Errorf("watch options = %+v", w)
	}
}

func TestReflectorRelistsAfterGone(t *testing.T) {
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
	waitUntil(t, "relist", func() bool { return r.LastSyncResourceVersion() == "30" })
	lists, _ := lw.recorded()
	if len(lists) < 3 || lists[1].ResourceVersion != "11" || lists[2].ResourceVersion != "" {
		t.Errorf("list versions: %+v", lists)
	}
	if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/b]" {
		t.Errorf("store keys = %v", keys)
	}
}

func TestReflectorFullListFallbackOnTooLargeResourceVersion(t *testing.T) {
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
	waitUntil(t, "list", func() bool { return r.LastSyncResourceVersion() == "7" })
	lists, _ := lw.recorded()
	if lists[1].ResourceVersion != "" {
		t.Errorf("fallback list rv = %q, want a consistent read", lists[1].ResourceVersion)
	}
}

func TestReflectorRelistUsesUnpaginatedListAtKnownVersion(t *testing.T) {
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
	waitUntil(t, "relist", func() bool { l, _ := lw.recorded(); return len(l) >= 2 })
	lists, _ := lw.recorded()
	if lists[1].ResourceVersion != "10" || lists[1].Limit != 0 {
		t.Errorf("relist options = %+v, want rv=10 without limit", lists[1])
	}
}

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

func TestReflectorIgnoresUnexpectedTypes(t *testing.T) {
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
	waitUntil(t, "pod", func() bool { return r.LastSyncResourceVersion() == "3" })
	if keys := store.ListKeys(); fmt.Sprint(keys) != "[ns/p]" {
		t.Errorf("store keys = %v", keys)
	}
}

func TestReflectorResync(t *testing.T) {
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
	waitUntil(t, "resyncs", func() bool { mu.Lock(); defer mu.Unlock(); return resyncs >= 3 })
}

func TestReflectorNameAndType(t *testing.T) {
	r := NewReflector(&scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
	if r.Name() == "" {
		t.Errorf("default name = %q", r.Name())
	}
	if r.TypeDescription() != "*v1.Pod" {
		t.Errorf("TypeDescription = %q", r.TypeDescription())
	}
	r = NewNamedReflector("mine", &scriptedLW{}, nil, NewStore(MetaNamespaceKeyFunc), 0)
	if r.Name() != "mine" || r.TypeDescription() != "<unspecified>" {
		t.Errorf("named reflector: %q %q", r.Name(), r.TypeDescription())
	}
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

func TestRetryWithDeadline(t *testing.T) {
	internal := apierrors.NewInternalError(errors.New("boom"))
	r := NewRetryWithDeadline(time.Hour, time.Minute, apierrors.IsInternalError, realClockForTest{})
	r.After(internal)
	if !r.ShouldRetry() {
		t.Error("internal error within the deadline should be retried")
	}
	// Other errors and successes are not recorded: the window stays open.
	r.After(errors.New("other"))
	r.After(nil)
	if !r.ShouldRetry() {
		t.Error("window closed by an error that is not retryable")
	}
	if NewRetryWithDeadline(0, time.Minute, nil, realClockForTest{}).ShouldRetry() {
		t.Error("zero duration retries")
	}
}
