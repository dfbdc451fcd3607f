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
