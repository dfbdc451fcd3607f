package events

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
)

// eventsServer is an events.k8s.io/v1 API on httptest that stores events
// and applies merge patches to their series.
type eventsServer struct {
	mu     sync.Mutex
	events map[string]*eventsv1.Event
	log    chan string
	srv    *httptest.Server
	// discovery makes the server list events.k8s.io/v1 in discovery.
	discovery bool
}

func newEventsServer(t *testing.T) *eventsServer {
	s := &eventsServer{events: map[string]*eventsv1.Event{}, log: make(chan string, 100)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *eventsServer) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	gr := schema.GroupResource{Group: "events.k8s.io", Resource: "events"}
	fail := func(err *apierrors.StatusError) {
		st := err.ErrStatus
		st.Kind, st.APIVersion = "Status", "v1"
		w.WriteHeader(int(st.Code))
		_ = json.NewEncoder(w).Encode(st)
	}
	if r.URL.Path == "/apis/events.k8s.io/v1" && s.discovery {
		_ = json.NewEncoder(w).Encode(metav1.APIResourceList{
			TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
			GroupVersion: "events.k8s.io/v1",
			APIResources: []metav1.APIResource{{Name: "events", Namespaced: true, Kind: "Event", Verbs: []string{"create", "patch"}}},
		})
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/apis/events.k8s.io/v1/namespaces/")
	if !ok {
		fail(apierrors.NewNotFound(gr, r.URL.Path))
		return
	}
	parts := strings.Split(rest, "/")
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodPost:
		var e eventsv1.Event
		if err := json.Unmarshal(body, &e); err != nil {
			fail(apierrors.NewBadRequest(err.Error()))
			return
		}
		key := parts[0] + "/" + e.Name
		if _, exists := s.events[key]; exists {
			fail(apierrors.NewAlreadyExists(gr, e.Name))
			return
		}
		e.ResourceVersion = "1"
		s.events[key] = &e
		s.log <- "create " + e.Note
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(e)
	case http.MethodPatch:
		key := parts[0] + "/" + parts[2]
		e, exists := s.events[key]
		if !exists {
			fail(apierrors.NewNotFound(gr, parts[2]))
			return
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/strategic-merge-patch+json" {
			fail(apierrors.NewBadRequest("unexpected patch type " + ct))
			return
		}
		if err := json.Unmarshal(body, e); err != nil {
			fail(apierrors.NewBadRequest(err.Error()))
			return
		}
		s.log <- fmt.Sprintf("patch series=%d", e.Series.Count)
		_ = json.NewEncoder(w).Encode(e)
	default:
		fail(apierrors.NewMethodNotSupported(gr, r.Method))
	}
}

func (s *eventsServer) client(t *testing.T) kubernetes.Interface {
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: s.srv.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func nextLog(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for the server")
		return ""
	}
}

func pod() *corev1.Pod {
	return &corev1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}}
}

// waitParked waits until both periodic loops wait on the clock.
func waitParked(t *testing.T, clk *testingclock.FakeClock, n int) {
	t.Helper()
	parked := func(context.Context) (bool, error) { return clk.Waiters() >= n, nil }
	if err := wait.PollUntilContextTimeout(context.Background(), 100*time.Microsecond, 10*time.Second, true, parked); err != nil {
		t.Fatalf("%d clock waiters, want %d", clk.Waiters(), n)
	}
}

func TestSeriesAreCountedRefreshedAndFinished(t *testing.T) {
	srv := newEventsServer(t)
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := newBroadcaster(&EventSinkImpl{Interface: srv.client(t).EventsV1()}, time.Millisecond, clk)
	defer b.Shutdown()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.StartRecordingToSinkWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	waitParked(t, clk, 2)
	r := b.NewRecorder(runtime.NewScheme(), "ctrl")
	r.(*recorderImplLogger).clock = clk

	r.Eventf(pod(), nil, corev1.EventTypeNormal, "Pulled", "Pull", "pulled %s", "img")
	if got := nextLog(t, srv.log); got != "create pulled img" {
		t.Fatalf("first write %q", got)
	}
	r.Eventf(pod(), nil, corev1.EventTypeNormal, "Pulled", "Pull", "pulled again")
	if got := nextLog(t, srv.log); got != "patch series=2" {
		t.Fatalf("isomorphic event wrote %q, want a series patch", got)
	}
	// Further repeats only bump the cached count ...
	r.Eventf(pod(), nil, corev1.EventTypeNormal, "Pulled", "Pull", "pulled a third time")
	r.Eventf(pod(), nil, corev1.EventTypeNormal, "Pulled", "Pull", "pulled a fourth time")
	// ... and a different action is a different event (at another time,
	// hence with another name).
	clk.Step(time.Second)
	r.Eventf(pod(), nil, corev1.EventTypeNormal, "Pulled", "Retry", "other")
	if got := nextLog(t, srv.log); got != "create other" {
		t.Fatalf("non-isomorphic event wrote %q", got)
	}
	b.mu.Lock()
	count := b.eventCache[getKeyFor(b, "Pull")].Series.Count
	b.mu.Unlock()
	if count != 4 {
		t.Fatalf("series count %d, want 4", count)
	}
	// Six idle minutes finish the series with its final count.
	clk.Step(finishTime + time.Second)
	if got := nextLog(t, srv.log); got != "patch series=4" {
		t.Fatalf("finishing the series wrote %q", got)
	}
	waitParked(t, clk, 2)
	b.mu.Lock()
	left := len(b.eventCache)
	b.mu.Unlock()
	if left != 0 {
		t.Errorf("%d events still cached after finishing", left)
	}
}

func getKeyFor(b *eventBroadcasterImpl, action string) eventKey {
	for k := range b.eventCache {
		if k.action == action {
			return k
		}
	}
	return eventKey{}
}

func TestRecorderEvent(t *testing.T) {
	b := newBroadcaster(nil, time.Millisecond, testingclock.NewFakeClock(time.Now()))
	defer b.Shutdown()
	got := make(chan *eventsv1.Event, 4)
	stop, err := b.StartEventWatcher(func(o runtime.Object) { got <- o.(*eventsv1.Event) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	stopLog, err := b.StartLogging(klog.Background().V(5))
	if err != nil {
		t.Fatal(err)
	}
	defer stopLog()
	b.StartStructuredLogging(5)()
	r := b.NewRecorder(runtime.NewScheme(), "ctrl").WithLogger(klog.Background())
	r.Eventf(pod(), nil, "Weird", "R", "A", "bad type")
	r.Eventf(nil, nil, corev1.EventTypeNormal, "R", "A", "no object")
	var nilPod *corev1.Pod
	r.(AnnotatedEventRecorder).AnnotatedEventf(pod(), nilPod, map[string]string{"a": "b"}, corev1.EventTypeWarning, "R", "A", "n=%d", 1)
	e := <-got
	if e.Note != "n=1" || e.Type != "Warning" || e.Action != "A" || e.Annotations["a"] != "b" || e.Related != nil ||
		e.ReportingController != "ctrl" || !strings.HasPrefix(e.ReportingInstance, "ctrl-") || e.Regarding.Name != "p" || e.Namespace != "ns" {
		t.Fatalf("event %+v", e)
	}
}

func TestGetFieldSelector(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	sel, err := GetFieldSelector(eventsv1.SchemeGroupVersion, gvk, "d", "uid")
	if err != nil || sortedTerms(sel.String()) != "regarding.apiVersion=apps/v1,regarding.kind=Deployment,regarding.name=d,regarding.uid=uid" {
		t.Errorf("events/v1 selector %v, %v", sel, err)
	}
	sel, err = GetFieldSelector(corev1.SchemeGroupVersion, schema.GroupVersionKind{}, "d", "")
	if err != nil || sel.String() != "involvedObject.name=d" {
		t.Errorf("core/v1 selector %v, %v", sel, err)
	}
	if _, err := GetFieldSelector(schema.GroupVersion{Group: "x", Version: "v9"}, gvk, "", ""); err == nil {
		t.Error("unknown version accepted")
	}
}

func sortedTerms(s string) string {
	terms := strings.Split(s, ",")
	sort.Strings(terms)
	return strings.Join(terms, ",")
}

func TestFakeRecorder(t *testing.T) {
	f := NewFakeRecorder(2)
	f.Eventf(pod(), nil, "Normal", "R", "A", "n=%d", 1)
	if got := <-f.Events; got != "Normal R n=1" {
		t.Errorf("got %q", got)
	}
	f.Verbose = true
	f.WithLogger(klog.Background()).(*FakeRecorder).AnnotatedEventf(pod(), pod(), map[string]string{"a": "b"}, "Normal", "R", "A", "x")
	if got := <-f.Events; got != "Normal R A x {kind=Pod,apiVersion=v1} {kind=Pod,apiVersion=v1} map[a:b]" {
		t.Errorf("got %q", got)
	}
	(&FakeRecorder{}).Eventf(pod(), nil, "Normal", "R", "A", "dropped")
}

func TestEventBroadcasterAdapter(t *testing.T) {
	for _, serves := range []bool{true, false} {
		t.Run(fmt.Sprint("servesEventsV1=", serves), func(t *testing.T) {
			srv := newEventsServer(t)
			srv.discovery = serves
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a := NewEventBroadcasterAdapterWithContext(ctx, srv.client(t))
			defer a.Shutdown()
			r := a.NewRecorder("ctrl")
			_, isNew := r.(*recorderImplLogger)
			if isNew != serves {
				t.Fatalf("NewRecorder returned %T with events.k8s.io/v1 served=%v", r, serves)
			}
			if a.DeprecatedNewLegacyRecorder("ctrl") == nil {
				t.Fatal("no legacy recorder")
			}
			if !serves {
				return
			}
			a.StartRecordingToSink(ctx.Done())
			r.Eventf(pod(), nil, corev1.EventTypeNormal, "R", "A", "via adapter")
			if got := nextLog(t, srv.log); got != "create via adapter" {
				t.Fatalf("server saw %q", got)
			}
		})
	}
	_ = NewEventBroadcasterAdapter
}

// TestSeriesRefresh keeps a series alive for over half an hour and checks
// that the periodic refresh writes its running count.
func TestSeriesRefresh(t *testing.T) {
	srv := newEventsServer(t)
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := newBroadcaster(&EventSinkImpl{Interface: srv.client(t).EventsV1()}, time.Millisecond, clk)
	defer b.Shutdown()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.StartRecordingToSinkWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	waitParked(t, clk, 2)
	r := b.NewRecorder(runtime.NewScheme(), "ctrl")
	r.(*recorderImplLogger).clock = clk
	seriesCount := func() int32 {
		b.mu.Lock()
		defer b.mu.Unlock()
		if e := b.eventCache[getKeyFor(b, "Probe")]; e != nil && e.Series != nil {
			return e.Series.Count
		}
		return 0
	}
	emit := func(want int32) {
		t.Helper()
		r.Eventf(pod(), nil, corev1.EventTypeWarning, "Unhealthy", "Probe", "probe failed")
		counted := func(context.Context) (bool, error) { return want <= 1 || seriesCount() == want, nil }
		if err := wait.PollUntilContextTimeout(context.Background(), 100*time.Microsecond, 10*time.Second, true, counted); err != nil {
			t.Fatalf("series count %d, want %d", seriesCount(), want)
		}
	}
	emit(1)
	if got := nextLog(t, srv.log); got != "create probe failed" {
		t.Fatalf("first write %q", got)
	}
	emit(2)
	if got := nextLog(t, srv.log); got != "patch series=2" {
		t.Fatalf("second write %q", got)
	}
	for i := int32(3); i <= 7; i++ {
		clk.Step(5 * time.Minute)
		waitParked(t, clk, 2)
		emit(i)
	}
	select {
	case got := <-srv.log:
		t.Fatalf("write %q before the refresh period", got)
	default:
	}
	clk.Step(5 * time.Minute) // 30 minutes in: refresh
	if got := nextLog(t, srv.log); got != "patch series=7" {
		t.Fatalf("refresh wrote %q, want the running count", got)
	}
}
