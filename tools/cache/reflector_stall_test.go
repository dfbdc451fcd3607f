package cache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"net/url"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"
)

// podHistory is a ListerWatcher over a recorded history of pod changes,
// as an apiserver keeps it: the n-th change has resource version n. A list
// returns the state after the newest change; a watch from version v
// replays the changes after v, then follows new ones. A watch opened while
// silentWatches is positive stays silent: it never delivers anything, as a
// stalled stream does.
type podHistory struct {
	mu            sync.Mutex
	changes       []watch.Event
	live          []*watch.RaceFreeFakeWatcher
	silentWatches int
	lists         int
	// watchedFrom records the resource version of every watch request.
	watchedFrom []string
}

func (h *podHistory) IsWatchListSemanticsUnSupported() bool { return true }

// write records a change made on the server side and sends it to the live
// watches.
func (h *podHistory) write(t watch.EventType, name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	rv := strconv.Itoa(len(h.changes) + 1)
	e := watch.Event{Type: t, Object: pod("ns", name, rv, nil)}
	h.changes = append(h.changes, e)
	for _, w := range h.live {
		if !w.IsStopped() {
			w.Action(e.Type, e.Object)
		}
	}
}

func (h *podHistory) List(metav1.ListOptions) (runtime.Object, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lists++
	state := map[string]*v1.Pod{}
	var order []string
	for _, e := range h.changes {
		p := e.Object.(*v1.Pod)
		if _, ok := state[p.Name]; !ok {
			order = append(order, p.Name)
		}
		state[p.Name] = p
		if e.Type == watch.Deleted {
			delete(state, p.Name)
		}
	}
	list := podList(strconv.Itoa(len(h.changes)), "")
	for _, name := range order {
		if p, ok := state[name]; ok {
			list.Items = append(list.Items, *p)
		}
	}
	return list, nil
}

func (h *podHistory) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.watchedFrom = append(h.watchedFrom, opts.ResourceVersion)
	w := watch.NewRaceFreeFake()
	if h.silentWatches > 0 {
		h.silentWatches--
		return &networkStream{Interface: w}, nil
	}
	from, _ := strconv.Atoi(opts.ResourceVersion)
	for _, e := range h.changes[min(from, len(h.changes)):] {
		w.Action(e.Type, e.Object)
	}
	h.live = append(h.live, w)
	return &networkStream{Interface: w}, nil
}

func (h *podHistory) counts() (lists, watches int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lists, len(h.watchedFrom)
}

// TestInformerSeesWriteMadeDuringWatchStall is the stalled-watch case of
// issue 13: the watch stream goes silent for five minutes of fake time
// while the server takes a write. With the default watch stall timeout the
// informer must see the write once the timeout has passed, and not by a
// relist but by resuming the watch where it left off.
func TestInformerSeesWriteMadeDuringWatchStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		server := &podHistory{}
		server.write(watch.Added, "a")
		server.silentWatches = 1

		inf := NewSharedIndexInformer(server, &v1.Pod{}, 0, Indexers{})
		seen := make(chan string, 10)
		_, _ = inf.AddEventHandler(ResourceEventHandlerFuncs{AddFunc: func(obj interface{}) { seen <- obj.(*v1.Pod).Name }})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); inf.RunWithContext(ctx) }()
		defer func() { cancel(); <-done }()
		if got := <-seen; got != "a" {
			t.Fatalf("first add = %s", got)
		}
		settled(t, "the silent watch is open", func() bool { _, w := server.counts(); return w == 1 })
		watchedAt := time.Now()

		time.Sleep(time.Minute)
		server.write(watch.Added, "b") // the stalled stream does not deliver it
		// Just before the bound nothing may have happened: the stall timer is
		// the only thing that can end the silent watch, and it has not fired.
		time.Sleep(defaultWatchStallTimeout - time.Minute - time.Millisecond)
		settled(t, "the silent watch is still the only one", func() bool { _, w := server.counts(); return w == 1 })
		select {
		case got := <-seen:
			if got != "b" {
				t.Fatalf("add after the stall = %s, want b", got)
			}
			if d := time.Since(watchedAt); d != defaultWatchStallTimeout {
				t.Errorf("the write arrived %v after the watch opened, want the stall timeout %v", d, defaultWatchStallTimeout)
			}
		case <-time.After(time.Hour):
			t.Fatal("the write made during the stall never reached the informer")
		}
		lists, _ := server.counts()
		server.mu.Lock()
		from := append([]string(nil), server.watchedFrom...)
		server.mu.Unlock()
		if lists != 1 || len(from) != 2 || from[1] != "1" {
			t.Errorf("lists=%d watches from %v; want one list and a watch resumed from 1", lists, from)
		}
	})
}

// TestReflectorStallDetection checks the bound, the counter and the switch
// on a bare reflector.
func TestReflectorStallDetection(t *testing.T) {
	tests := []struct {
		name         string
		stallTimeout time.Duration
		bookmarkAt   time.Duration // a bookmark arrives then (0: none)
		wantRestart  time.Duration // when the silent watch is given up
	}{
		{name: "silent watch restarted after the timeout", stallTimeout: time.Minute, wantRestart: time.Minute},
		{name: "a bookmark proves the watch alive", stallTimeout: time.Minute, bookmarkAt: 40 * time.Second, wantRestart: 100 * time.Second},
		{name: "detection off", stallTimeout: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				first := watch.NewFakeWithChanSize(1, false)
				lw := &scriptedLW{noWatchList: true,
					list: func(int, metav1.ListOptions) (runtime.Object, error) {
						return podList("10", "", pod("ns", "a", "10", nil)), nil
					},
					watch: func(call int, _ metav1.ListOptions) (watch.Interface, error) {
						if call == 1 {
							return &networkStream{Interface: first}, nil
						}
						return &networkStream{Interface: watch.NewFake()}, nil
					},
				}
				// The bubble's clock is the reflector's real clock, on which
				// stall detection runs.
				r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{})
				r.stallTimeout = tc.stallTimeout
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); r.RunWithContext(ctx) }()
				defer func() { cancel(); <-done }()
				watches := func() int { _, w := lw.recorded(); return len(w) }
				settled(t, "the first watch", func() bool { return watches() == 1 })
				if tc.stallTimeout == 0 {
					time.Sleep(time.Hour)
					settled(t, "the silent watch kept for an hour", func() bool { return watches() == 1 })
					return
				}
				var elapsed time.Duration
				if tc.bookmarkAt > 0 {
					time.Sleep(tc.bookmarkAt)
					elapsed = tc.bookmarkAt
					first.Action(watch.Bookmark, pod("", "", "11", nil))
					settled(t, "the bookmark", func() bool { return r.LastSyncResourceVersion() == "11" })
				}
				time.Sleep(tc.wantRestart - elapsed - time.Millisecond)
				settled(t, "no watch reopened before "+tc.wantRestart.String(), func() bool { return watches() == 1 })
				time.Sleep(time.Millisecond)
				settled(t, "the resumed watch", func() bool { return watches() == 2 })
				if !first.IsStopped() {
					t.Error("the stalled watch was not stopped")
				}
				if n := r.health.stalledWatches.Load(); n != 1 {
					t.Errorf("stalled watches = %d, want 1", n)
				}
				lists, ws := lw.recorded()
				if want := r.LastSyncResourceVersion(); len(lists) != 1 || ws[1].ResourceVersion != want {
					t.Errorf("%d lists, resumed from %q; want 1 list and a watch from %q", len(lists), ws[1].ResourceVersion, want)
				}
			})
		})
	}
}

func TestSetWatchStallTimeout(t *testing.T) {
	prev := SetWatchStallTimeout(time.Second)
	defer SetWatchStallTimeout(prev)
	if prev != defaultWatchStallTimeout {
		t.Errorf("default = %v, want %v", prev, defaultWatchStallTimeout)
	}
	if r := NewReflector(&scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0); r.stallTimeout != time.Second {
		t.Errorf("new reflector's stall timeout = %v", r.stallTimeout)
	}
	SetWatchStallTimeout(-time.Second)
	if r := NewReflector(&scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0); r.stallTimeout != 0 {
		t.Errorf("negative timeout left detection on: %v", r.stallTimeout)
	}
}

// streamCutStatus is the watch.Error object the rest client produces when
// it cannot decode a watch stream.
func streamCutStatus() runtime.Object {
	return apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET", "ClientWatchDecoding").
		AsObject(fmt.Errorf("unable to decode an event from the watch stream: %w", io.ErrUnexpectedEOF))
}

// TestReflectorResumesAfterStreamCutInsideEvent: a watch whose stream was
// cut inside an event closes like any other; the reflector logs and
// counts the cut and resumes watching from the last resource version it
// reached, without a relist, as client-go's does.
func TestReflectorResumesAfterStreamCutInsideEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lw := &scriptedLW{noWatchList: true}
		lw.list = func(call int, _ metav1.ListOptions) (runtime.Object, error) {
			return podList("10", "", pod("ns", "a", "10", nil)), nil
		}
		lw.watch = func(call int, _ metav1.ListOptions) (watch.Interface, error) {
			w := watch.NewFakeWithChanSize(2, false)
			switch call {
			case 1:
				w.Modify(pod("ns", "a", "11", nil))
				w.Stop() // the channel closes after the event
				return &networkStream{Interface: w, cut: errors.New("watch stream cut in the middle of an event")}, nil
			case 2:
				w.Add(pod("ns", "b", "12", nil))
			}
			return w, nil
		}
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Backoff: fastBackoff()})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go r.RunWithContext(ctx)
		settled(t, "the resumed watch's event", func() bool { _, ok, _ := store.GetByKey("ns/b"); return ok })
		if n := r.health.interruptedWatches.Load(); n != 1 {
			t.Errorf("interrupted watches = %d, want 1", n)
		}
		lists, watches := lw.recorded()
		if len(lists) != 1 {
			t.Errorf("%d lists, want 1: a cut watch is resumed, not relisted", len(lists))
		}
		if len(watches) < 2 || watches[1].ResourceVersion != "11" {
			t.Errorf("watches %+v; want the second from the last version reached, 11", watches)
		}
	})
}

// TestStallDetectionLeavesTestsAlone is a client-go user's test: a
// Reflector on a fake clock with a fake watcher, the clock stepped past
// the stall timeout, then an event. It must reach the store: stall
// detection runs only on the real clock and only on watches read from the
// network. (Before, the fake watcher was stopped and the test's Add
// panicked: send on closed channel.)
func TestStallDetectionLeavesTestsAlone(t *testing.T) {
	tests := []struct {
		name string
		// stallClock: the reflector's stall detection runs on the fake
		// clock, as it would on the real one.
		stallClock bool
		// stream: the fake watcher passes for a network stream.
		stream bool
	}{
		{name: "fake clock, fake watcher"},
		{name: "fake clock, network stream", stream: true},
		{name: "stall clock, fake watcher", stallClock: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				clk := testingclock.NewFakeClock(time.Now())
				fw := watch.NewFake()
				lw := &scriptedLW{noWatchList: true,
					list: func(int, metav1.ListOptions) (runtime.Object, error) {
						return podList("10", "", pod("ns", "a", "10", nil)), nil
					},
					watch: func(call int, _ metav1.ListOptions) (watch.Interface, error) {
						if call > 1 {
							return watch.NewFake(), nil
						}
						if tc.stream {
							return &networkStream{Interface: fw}, nil
						}
						return fw, nil
					},
				}
				store := NewStore(MetaNamespaceKeyFunc)
				r := NewReflectorWithOptions(lw, &v1.Pod{}, store, ReflectorOptions{Clock: clk})
				if tc.stallClock {
					r.stallClock = clk
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); r.RunWithContext(ctx) }()
				defer func() { cancel(); <-done }()
				settled(t, "the watch", func() bool { _, w := lw.recorded(); return len(w) == 1 })

				clk.Step(5 * time.Minute)
				fw.Add(pod("ns", "b", "11", nil)) // blocks until the reflector takes it
				settled(t, "the added pod", func() bool { _, ok, _ := store.GetByKey("ns/b"); return ok })
				if n := r.health.stalledWatches.Load(); n != 0 {
					t.Errorf("stalled watches = %d, want 0", n)
				}
				if fw.IsStopped() {
					t.Error("the reflector stopped the test's watcher")
				}
			})
		})
	}
}

func TestStreamBrokeOff(t *testing.T) {
	tests := []struct {
		name   string
		status *metav1.Status
		want   bool
	}{
		{"client decoding failure", streamCutStatus().(*metav1.Status), true},
		{"unexpected EOF in the message", &metav1.Status{Message: "read: unexpected EOF"}, true},
		{"read of a cancelled request", apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET", "ClientWatchDecoding").
			AsObject(fmt.Errorf("unable to decode an event from the watch stream: %w", context.Canceled)).(*metav1.Status), false},
		{"server error", &apierrors.NewInternalError(fmt.Errorf("etcd down")).ErrStatus, false},
		{"expired", &apierrors.NewResourceExpired("too old").ErrStatus, false},
	}
	for _, tc := range tests {
		if got := streamBrokeOff(tc.status); got != tc.want {
			t.Errorf("%s: streamBrokeOff = %v, want %v", tc.name, got, tc.want)
		}
	}
}

type countingMetric struct{ n *int }

func (c countingMetric) Inc() { *c.n++ }

type streamMetrics struct {
	discardMetricsProvider
	stalled, interrupted int
}

func (m *streamMetrics) NewStalledWatchesMetric(string) CounterMetric {
	return countingMetric{&m.stalled}
}

func (m *streamMetrics) NewInterruptedWatchesMetric(string) CounterMetric {
	return countingMetric{&m.interrupted}
}

func TestWatchHealthUsesProviderMetrics(t *testing.T) {
	r := NewReflector(&scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
	m := &streamMetrics{}
	h := newWatchHealth("r", m)
	h.stalled(r, time.Minute)
	h.interrupted(r, fmt.Errorf("cut"))
	h.interrupted(r, fmt.Errorf("cut"))
	if m.stalled != 1 || m.interrupted != 2 || h.stalledWatches.Load() != 1 || h.interruptedWatches.Load() != 2 {
		t.Errorf("metrics stalled=%d interrupted=%d, counters %d %d", m.stalled, m.interrupted, h.stalledWatches.Load(), h.interruptedWatches.Load())
	}
	// A provider without the extension still gets the reflector's own
	// counters.
	h = newWatchHealth("r", discardMetricsProvider{})
	h.stalled(r, time.Minute)
	if h.stalledWatches.Load() != 1 {
		t.Error("counter not kept without provider metrics")
	}
}

// TestReflectorStallOverHTTP: a real watch response whose server sends the
// headers and then nothing. The reflector gives the stream up after the
// stall timeout, which also ends the HTTP request, and watches again from
// where it was; the server's write made meanwhile arrives.
func TestReflectorStallOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := newPodAPIServer(1)
		n, closeNet := newPipeNet(api)
		defer closeNet()
		lw := NewListWatchFromClient(podClient(t, n), "pods", "ns", fields.Everything())
		store := NewStore(MetaNamespaceKeyFunc)
		r := NewReflectorWithOptions(ToListWatcherWithWatchListSemantics(lw, unsupportedClient{}), &v1.Pod{}, store, ReflectorOptions{})
		r.stallTimeout = time.Minute
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); r.RunWithContext(ctx) }()
		defer func() { cancel(); <-done }()

		watchQueries := func() []url.Values {
			api.mu.Lock()
			defer api.mu.Unlock()
			var out []url.Values
			for _, q := range api.requests {
				if v, _ := url.ParseQuery(q); v.Get("watch") == "true" {
					out = append(out, v)
				}
			}
			return out
		}
		settled(t, "the silent watch is open", func() bool { return len(watchQueries()) == 1 })
		created := &v1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "written-during-stall", ResourceVersion: "101"}}
		api.mu.Lock()
		api.events = []metav1.WatchEvent{watchEvent(watch.Added, created)}
		api.mu.Unlock()

		time.Sleep(time.Minute - time.Millisecond)
		settled(t, "the silent watch is kept until the stall timeout", func() bool { return len(watchQueries()) == 1 })
		time.Sleep(time.Millisecond)
		settled(t, "the write arrives by a second watch", func() bool { _, ok, _ := store.GetByKey("ns/written-during-stall"); return ok })
		queries := watchQueries()
		if len(queries) != 2 || queries[1].Get("resourceVersion") != "100" {
			t.Errorf("watches %v; want a second one from 100", queries)
		}
		if r.health.stalledWatches.Load() != 1 {
			t.Errorf("stalled watches = %d", r.health.stalledWatches.Load())
		}
	})
}

// TestStoppingReflectorCountsNoInterruption: when the reflector stops,
// cancelling its watch request breaks the stream as a cut would (the rest
// client reports the cancelled read as a decoding failure). That is no
// interruption: nothing is counted or logged, whichever of the stop and
// the stream's end the reflector sees first.
func TestStoppingReflectorCountsNoInterruption(t *testing.T) {
	ends := []struct {
		name string
		end  func(w *watch.FakeWatcher) watch.Interface
	}{
		{"error event from the cancelled read", func(w *watch.FakeWatcher) watch.Interface {
			w.Error(streamCutStatus())
			return &networkStream{Interface: w}
		}},
		{"stream closed with a cut", func(w *watch.FakeWatcher) watch.Interface {
			w.Stop()
			return &networkStream{Interface: w, cut: errors.New("cut inside an event")}
		}},
	}
	for _, end := range ends {
		t.Run(end.name, func(t *testing.T) {
			r := NewReflector(&scriptedLW{}, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), 0)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			// Both the stop and the stream's end are ready; the select
			// picks either, so a few rounds see both.
			for range 32 {
				w := end.end(watch.NewFakeWithChanSize(1, false))
				s := r.newWatchStream(w, r.store, time.Now(), nil)
				if _, err := s.receive(ctx); !errors.Is(err, errStopRequested) {
					t.Fatalf("receive while stopping returned %v, want the stop", err)
				}
			}
			if n := r.health.interruptedWatches.Load(); n != 0 {
				t.Errorf("interrupted watches = %d, want 0", n)
			}
		})
	}
}
