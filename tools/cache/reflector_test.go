package cache

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"
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

// TestReflectorBacksOffExponentially checks the delays between failing
// attempts on a fake clock: 1s, then 2s, then 4s.
func TestReflectorBacksOffExponentially(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	var mu sync.Mutex
	calls := 0
	lw := &scriptedLW{
		noWatchList: true,
		list: func(int, metav1.ListOptions) (runtime.Object, error) {
			mu.Lock()
			calls++
			mu.Unlock()
			return nil, errors.New("server down")
		},
		watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}
	r := NewReflectorWithOptions(lw, &v1.Pod{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{
		Clock:   clk,
		Backoff: &wait.Backoff{Duration: time.Second, Factor: 2, Steps: 10, Cap: time.Minute},
	})
	r.setWatchErrorHandler(func(context.Context, *Reflector, error) {})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.RunWithContext(ctx)

	count := func() int { mu.Lock(); defer mu.Unlock(); return calls }
	for attempt, delay := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		waitUntil(t, "attempt", func() bool { return count() == attempt+1 && clk.HasWaiters() })
		clk.Step(delay - time.Millisecond)
		// The fake clock fires timers within Step: a waiter left means the
		// backoff has not ended, and only its end starts another attempt.
		if !clk.HasWaiters() {
			t.Fatalf("backoff %d ended before %v", attempt+1, delay)
		}
		clk.Step(time.Millisecond)
	}
	waitUntil(t, "fourth attempt", func() bool { return count() == 4 })
}

// TestReflectorLifecycle: the stop-channel forms end when the channel is
// closed, and the convenience constructors name and wire the reflector.
func TestReflectorLifecycle(t *testing.T) {
	lw := &scriptedLW{noWatchList: true,
		list: func(int, metav1.ListOptions) (runtime.Object, error) {
			return podList("1", "", pod("ns", "a", "1", nil)), nil
		},
		watch: func(int, metav1.ListOptions) (watch.Interface, error) { return watch.NewFake(), nil },
	}
	indexer, r := NewNamespaceKeyedIndexerAndReflector(lw, &v1.Pod{}, 0)
	stop := make(chan struct{})
	ran := make(chan struct{})
	go func() { defer close(ran); r.Run(stop) }()
	waitUntil(t, "list", func() bool { return len(indexer.ListKeys()) == 1 })
	if keys, _ := indexer.IndexKeys(NamespaceIndex, "ns"); len(keys) != 1 {
		t.Errorf("namespace index %v", keys)
	}
	close(stop)
	<-ran

	stop = make(chan struct{})
	returned := make(chan error)
	go func() { returned <- r.ListAndWatch(stop) }()
	waitUntil(t, "second watch", func() bool { _, w := lw.recorded(); return len(w) == 2 })
	close(stop)
	if err := <-returned; err != nil {
		t.Errorf("ListAndWatch after stop = %v", err)
	}
}
