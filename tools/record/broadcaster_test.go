package record

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

// memSink stores events in memory; failures makes the next n writes fail
// with a transport error.
type memSink struct {
	mu       sync.Mutex
	events   map[string]*v1.Event
	calls    []string
	failures int
	written  chan string
}

func newMemSink() *memSink {
	return &memSink{events: map[string]*v1.Event{}, written: make(chan string, 100)}
}

func (s *memSink) record(call string) error {
	s.calls = append(s.calls, call)
	if s.failures > 0 {
		s.failures--
		return errors.New("connection refused")
	}
	return nil
}

func (s *memSink) Create(e *v1.Event) (*v1.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.record("create"); err != nil {
		return nil, err
	}
	if _, ok := s.events[e.Name]; ok {
		return nil, apierrors.NewAlreadyExists(schema.GroupResource{Resource: "events"}, e.Name)
	}
	stored := e.DeepCopy()
	stored.ResourceVersion = "1"
	s.events[e.Name] = stored
	s.written <- fmt.Sprintf("create %s %d %s", e.Name, e.Count, e.Message)
	return stored.DeepCopy(), nil
}

func (s *memSink) Update(e *v1.Event) (*v1.Event, error) { return nil, errors.New("not used") }

func (s *memSink) Patch(e *v1.Event, data []byte) (*v1.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.record("patch"); err != nil {
		return nil, err
	}
	stored, ok := s.events[e.Name]
	if !ok {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "events"}, e.Name)
	}
	stored.Count = e.Count
	s.written <- fmt.Sprintf("patch %s %d %s", e.Name, e.Count, string(data))
	return stored.DeepCopy(), nil
}

func pod() *v1.Pod {
	return &v1.Pod{TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}, ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}}
}

func next(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for a write")
		return ""
	}
}

func TestBroadcasterRecordsToSink(t *testing.T) {
	b := NewBroadcasterForTests(time.Millisecond)
	defer b.Shutdown()
	sink := newMemSink()
	b.StartRecordingToSink(sink)
	r := b.NewRecorder(runtime.NewScheme(), v1.EventSource{Component: "ctrl", Host: "h"})

	r.Event(pod(), v1.EventTypeNormal, "Created", "made it")
	first := next(t, sink.written)
	if !strings.HasPrefix(first, "create p.") || !strings.HasSuffix(first, " 1 made it") {
		t.Fatalf("first write %q", first)
	}
	r.Eventf(pod(), v1.EventTypeNormal, "Created", "made %s", "it")
	if second := next(t, sink.written); !strings.HasPrefix(second, "patch p.") || !strings.Contains(second, `"count":2`) {
		t.Fatalf("repeat write %q, want a count patch", second)
	}
	// Transport failures are retried.
	sink.mu.Lock()
	sink.failures = 2
	sink.mu.Unlock()
	r.AnnotatedEventf(pod(), map[string]string{"k": "v"}, v1.EventTypeWarning, "Failed", "boom %d", 1)
	if third := next(t, sink.written); !strings.HasSuffix(third, " 1 boom 1") {
		t.Fatalf("write after retries %q", third)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	var stored *v1.Event
	for _, e := range sink.events {
		if e.Reason == "Failed" {
			stored = e
		}
	}
	if stored == nil || stored.Annotations["k"] != "v" || stored.Source.Component != "ctrl" || stored.ReportingController != "ctrl" || stored.ReportingInstance != "h" || stored.Namespace != "ns" {
		t.Errorf("stored event %+v", stored)
	}
}

func TestRecorderRejectsBadInput(t *testing.T) {
	b := NewBroadcaster()
	defer b.Shutdown()
	got := make(chan *v1.Event, 10)
	b.StartEventWatcher(func(e *v1.Event) { got <- e })
	r := b.NewRecorder(runtime.NewScheme(), v1.EventSource{Component: "c"}).WithLogger(klog.Background())
	r.Event(pod(), "Bogus", "R", "bad type")               // invalid type
	r.Event(&v1.Pod{}, v1.EventTypeNormal, "R", "no kind") // no type meta, scheme does not know Pod
	r.Event(&v1.ObjectReference{Kind: "Node", Name: "n"}, v1.EventTypeNormal, "R", "ok")
	e := <-got
	if e.Message != "ok" || e.Namespace != metav1.NamespaceDefault || e.InvolvedObject.Kind != "Node" {
		t.Fatalf("first delivered event %+v, want only the valid one", e)
	}
}

func TestLoggingAndShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := NewBroadcaster(WithContext(ctx), WithSleepDuration(time.Millisecond), WithCorrelatorOptions(CorrelatorOptions{BurstSize: 1}))
	lines := make(chan string, 10)
	w := b.StartLogging(func(format string, args ...interface{}) { lines <- fmt.Sprintf(format, args...) })
	b.StartStructuredLogging(4)
	r := b.NewRecorder(runtime.NewScheme(), v1.EventSource{Component: "c"})
	r.Event(pod(), v1.EventTypeWarning, "Oops", "it broke")
	if l := next(t, lines); !strings.Contains(l, "type: 'Warning' reason: 'Oops' it broke") {
		t.Errorf("log line %q", l)
	}
	w.Stop()
	cancel()
	// After the context ends, the broadcaster refuses new watchers' events.
	deadline := time.Now().Add(10 * time.Second)
	for {
		w2 := b.StartEventWatcher(func(*v1.Event) {})
		_, open := <-w2.ResultChan()
		if !open {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("broadcaster still running after its context was cancelled")
		}
	}
}

func TestFakeRecorder(t *testing.T) {
	f := NewFakeRecorder(3)
	f.IncludeObject = true
	f.Event(pod(), v1.EventTypeNormal, "R", "100%")
	f.Eventf(pod(), v1.EventTypeWarning, "R", "n=%d", 2)
	f.WithLogger(klog.Background()).AnnotatedEventf(pod(), map[string]string{"a": "b"}, v1.EventTypeNormal, "R", "x")
	want := []string{
		"Normal R 100% involvedObject{kind=Pod,apiVersion=v1}",
		"Warning R n=2 involvedObject{kind=Pod,apiVersion=v1}",
		"Normal R x involvedObject{kind=Pod,apiVersion=v1} map[a:b]",
	}
	for _, w := range want {
		if got := <-f.Events; got != w {
			t.Errorf("got %q, want %q", got, w)
		}
	}
	(&FakeRecorder{}).Event(pod(), "Normal", "R", "dropped") // must not block or panic
}

func TestEventRecorderAdapter(t *testing.T) {
	f := NewFakeRecorder(2)
	a := NewEventRecorderAdapter(f)
	a.Eventf(pod(), nil, v1.EventTypeNormal, "R", "Act", "note %d", 1)
	a.WithLogger(klog.Background()).(*EventRecorderAdapter).AnnotatedEventf(pod(), nil, map[string]string{"x": "y"}, v1.EventTypeNormal, "R", "Act", "n")
	if got := <-f.Events; got != "Normal R note 1" {
		t.Errorf("got %q", got)
	}
	if got := <-f.Events; got != "Normal R n map[x:y]" {
		t.Errorf("got %q", got)
	}
}
