package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
)

// stallingServer serves watches of the config maps in namespace "ns" in
// the real wire format. Every stream first replays the stored changes after
// the requested resource version and then sends only what the test pushes
// to it: a stream the test pushes nothing to is a stalled stream (headers
// sent, then silence), which is what a hung server or a half-dead
// connection looks like to the client.
type stallingServer struct {
	mu       sync.Mutex
	changes  []*v1.ConfigMap   // changes[i] has resource version i+2
	requests []watchRequest    // the watch requests, in order
	streams  []chan watchFrame // one per request, for pushes
	opened   chan int          // receives the index of each new stream
}

type watchRequest struct{ resourceVersion, allowBookmarks string }

type watchFrame struct {
	Type   watch.EventType `json:"type"`
	Object runtime.Object  `json:"object"`
}

func newStallingServer(t *testing.T) (*stallingServer, *httptest.Server) {
	s := &stallingServer{opened: make(chan int, 10)}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

// write stores a new version of config map name, as a client's update
// would, and returns its resource version. Open streams do not see it.
func (s *stallingServer) write(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	rv := strconv.Itoa(len(s.changes) + 2)
	s.changes = append(s.changes, cmObject(name, rv))
	return rv
}

func cmObject(name, rv string) *v1.ConfigMap {
	c := cm(name, rv)
	c.TypeMeta = metav1.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"}
	return c
}

// push sends a frame on stream i.
func (s *stallingServer) push(i int, f watchFrame) {
	s.mu.Lock()
	ch := s.streams[i]
	s.mu.Unlock()
	ch <- f
}

func (s *stallingServer) requestLog() []watchRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]watchRequest(nil), s.requests...)
}

func (s *stallingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if r.URL.Path != "/api/v1/namespaces/ns/configmaps" || q.Get("watch") != "true" {
		http.NotFound(w, r)
		return
	}
	from, err := strconv.Atoi(q.Get("resourceVersion"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	frames := make(chan watchFrame)
	s.mu.Lock()
	s.requests = append(s.requests, watchRequest{q.Get("resourceVersion"), q.Get("allowWatchBookmarks")})
	s.streams = append(s.streams, frames)
	index := len(s.streams) - 1
	var replay []*v1.ConfigMap
	if from-1 < len(s.changes) {
		replay = s.changes[max(from-1, 0):]
	}
	s.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	enc := json.NewEncoder(w)
	for _, obj := range replay {
		_ = enc.Encode(watchFrame{Type: watch.Added, Object: obj})
	}
	w.(http.Flusher).Flush()
	s.opened <- index
	for {
		select {
		case <-r.Context().Done():
			return
		case f := <-frames:
			_ = enc.Encode(f)
			w.(http.Flusher).Flush()
		}
	}
}

// waitOpened returns the index of the next stream the server opened.
func (s *stallingServer) waitOpened(t *testing.T) int {
	t.Helper()
	select {
	case i := <-s.opened:
		return i
	case <-time.After(30 * time.Second):
		t.Fatal("no watch request reached the server")
		return -1
	}
}

type configMapWatcher struct{ client kubernetes.Interface }

func (c configMapWatcher) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return c.client.CoreV1().ConfigMaps("ns").Watch(ctx, opts)
}

// startStallTest returns a RetryWatcher from resource version 1 on a fake
// clock, against a stallingServer whose first stream is open.
func startStallTest(t *testing.T, ctx context.Context) (*stallingServer, *RetryWatcher, *testingclock.FakeClock) {
	t.Helper()
	s, srv := newStallingServer(t)
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	rw, err := newRetryWatcher(ctx, "1", configMapWatcher{client}, retryTiming{clock: clk, restartDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rw.Stop()
		<-rw.Done()
	})
	if i := s.waitOpened(t); i != 0 {
		t.Fatalf("first stream has index %d", i)
	}
	return s, rw, clk
}

// nextEvent returns the next event of rw as "TYPE name@rv".
func nextEvent(t *testing.T, rw *RetryWatcher) string {
	t.Helper()
	select {
	case e, ok := <-rw.ResultChan():
		if !ok {
			t.Fatal("result channel closed")
		}
		c := e.Object.(*v1.ConfigMap)
		return fmt.Sprintf("%s %s@%s", e.Type, c.Name, c.ResourceVersion)
	case <-time.After(30 * time.Second):
		t.Fatal("no event")
		return ""
	}
}

// waitTimerArmed waits until the RetryWatcher's goroutine waits on clk,
// so that a Step that follows moves time for its timer.
func waitTimerArmed(t *testing.T, clk *testingclock.FakeClock) {
	t.Helper()
	armed := func(context.Context) (bool, error) { return clk.HasWaiters(), nil }
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true, armed); err != nil {
		t.Fatal("the RetryWatcher never armed its stall timer")
	}
}

// TestStalledStreamResumedWithinBound: the server goes silent on an open
// stream while a write happens; once the stall timeout has passed without
// an event or bookmark, the RetryWatcher drops the stream and resumes from
// the last resource version, so the write is seen. client-go waits until
// the server closes the stream, possibly forever.
func TestStalledStreamResumedWithinBound(t *testing.T) {
	tests := []struct {
		name  string
		ctx   context.Context
		bound time.Duration
	}{
		{name: "default bound", ctx: context.Background(), bound: DefaultStallTimeout},
		{name: "configured bound", ctx: WithStallTimeout(context.Background(), 10*time.Second), bound: 10 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, rw, clk := startStallTest(t, tc.ctx)
			waitTimerArmed(t, clk)
			rv := s.write("a") // the stalled stream 0 never delivers it

			clk.Step(tc.bound - time.Nanosecond)
			select {
			case e := <-rw.ResultChan():
				t.Fatalf("event %v before the stall timeout passed", e)
			default:
			}
			clk.Step(time.Nanosecond)
			if i := s.waitOpened(t); i != 1 {
				t.Fatalf("stream %d opened, want 1", i)
			}
			if got, want := nextEvent(t, rw), "ADDED a@"+rv; got != want {
				t.Errorf("event %q, want %q", got, want)
			}
			for i, req := range s.requestLog() {
				if req.resourceVersion != "1" || req.allowBookmarks != "true" {
					t.Errorf("request %d: %+v, want resourceVersion 1 and bookmarks", i, req)
				}
			}
		})
	}
}

// TestBookmarksKeepQuietStreamOpen: bookmarks are activity, so a stream
// that carries only bookmarks is not restarted, and its bookmark moves the
// resume point.
func TestBookmarksKeepQuietStreamOpen(t *testing.T) {
	s, rw, clk := startStallTest(t, context.Background())
	waitTimerArmed(t, clk)
	clk.Step(DefaultStallTimeout - apiserverBookmarkInterval)
	s.push(0, watchFrame{Type: watch.Bookmark, Object: cmObject("", "7")})
	s.push(0, watchFrame{Type: watch.Modified, Object: cmObject("a", "8")})
	if got := nextEvent(t, rw); got != "MODIFIED a@8" { // the bookmark came first
		t.Fatalf("event %q", got)
	}
	// The stall timer fires at DefaultStallTimeout, a bookmark interval
	// after the last activity: the stream is kept.
	clk.Step(apiserverBookmarkInterval)
	s.push(0, watchFrame{Type: watch.Modified, Object: cmObject("a", "9")})
	if got := nextEvent(t, rw); got != "MODIFIED a@9" {
		t.Fatalf("event %q", got)
	}
	if n := len(s.requestLog()); n != 1 {
		t.Errorf("%d watch requests, want 1", n)
	}
}

// TestStallDetectionOff: WithStallTimeout(ctx, 0) keeps client-go's
// behaviour: no timer, a silent stream is kept however long.
func TestStallDetectionOff(t *testing.T) {
	s, rw, clk := startStallTest(t, WithStallTimeout(context.Background(), 0))
	s.push(0, watchFrame{Type: watch.Added, Object: cmObject("a", "2")})
	if got := nextEvent(t, rw); got != "ADDED a@2" {
		t.Fatalf("event %q", got)
	}
	if clk.HasWaiters() {
		t.Fatal("a timer is armed with stall detection off")
	}
	clk.Step(time.Hour)
	s.push(0, watchFrame{Type: watch.Modified, Object: cmObject("a", "3")})
	if got := nextEvent(t, rw); got != "MODIFIED a@3" {
		t.Fatalf("event %q", got)
	}
	if n := len(s.requestLog()); n != 1 {
		t.Errorf("%d watch requests, want 1", n)
	}
}

func TestStallTimeoutFromContext(t *testing.T) {
	tests := []struct {
		name string
		ctx  context.Context
		want time.Duration
	}{
		{name: "default", ctx: context.Background(), want: DefaultStallTimeout},
		{name: "set", ctx: WithStallTimeout(context.Background(), time.Minute), want: time.Minute},
		{name: "off", ctx: WithStallTimeout(context.Background(), 0), want: 0},
		{name: "negative is off", ctx: WithStallTimeout(context.Background(), -time.Second), want: 0},
	}
	for _, tc := range tests {
		if got := stallTimeoutFrom(tc.ctx); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if DefaultStallTimeout <= 2*apiserverBookmarkInterval {
		t.Errorf("DefaultStallTimeout %v does not tolerate one lost bookmark", DefaultStallTimeout)
	}
}

// fakeSource hands out one fake watcher, then watchers that stay silent.
type fakeSource struct {
	first   *watch.FakeWatcher
	mu      sync.Mutex // guards watches
	watches int
}

func (s *fakeSource) WatchWithContext(context.Context, metav1.ListOptions) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watches++
	if s.watches == 1 {
		return s.first, nil
	}
	return watch.NewFake(), nil
}

// TestStallDetectionLeavesFakeWatchersAlone: a watch the program made
// itself (here a fake watcher in a test whose clock moves past the stall
// timeout) is never declared stalled: its next event is delivered and it
// is not stopped.
func TestStallDetectionLeavesFakeWatchersAlone(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	src := &fakeSource{first: watch.NewFake()}
	rw, err := newRetryWatcher(context.Background(), "1", src, retryTiming{clock: clk, restartDelay: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { rw.Stop(); <-rw.Done() }()
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 30*time.Second, true,
		func(context.Context) (bool, error) {
			src.mu.Lock()
			defer src.mu.Unlock()
			return src.watches == 1, nil
		}); err != nil {
		t.Fatal("the RetryWatcher never opened its watch")
	}
	// The first event proves the RetryWatcher follows the watch (and,
	// were detection on, has armed its timer).
	go src.first.Add(cmObject("a", "2"))
	if got := nextEvent(t, rw); got != "ADDED a@2" {
		t.Fatalf("event %q", got)
	}
	clk.Step(2 * DefaultStallTimeout)
	go src.first.Modify(cmObject("a", "3"))
	if got := nextEvent(t, rw); got != "MODIFIED a@3" {
		t.Fatalf("event %q", got)
	}
	if src.first.IsStopped() {
		t.Error("the fake watcher was stopped")
	}
}
