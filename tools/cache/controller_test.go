package cache

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"

	fcache "github.com/kubeclient/client-go/tools/cache/testing"
)

func TestControllerWithDeltaFIFO(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(pod("ns", "a", "", nil))
	store := NewStore(DeletionHandlingMetaNamespaceKeyFunc)
	fifo := NewDeltaFIFOWithOptions(DeltaFIFOOptions{KnownObjects: store, EmitDeltaTypeReplaced: true})
	var mu sync.Mutex
	var seen []string
	ctrl := New(&Config{
		Queue:         fifo,
		ListerWatcher: source,
		ObjectType:    &v1.Pod{},
		Process: func(obj interface{}, _ bool) error {
			for _, d := range obj.(Deltas) {
				mu.Lock()
				seen = append(seen, string(d.Type))
				mu.Unlock()
				var err error
				if d.Type == Deleted {
					err = store.Delete(d.Object)
				} else {
					err = store.Update(d.Object)
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	})
	if ctrl.LastSyncResourceVersion() != "" {
		t.Error("LastSyncResourceVersion before Run")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); ctrl.RunWithContext(ctx) }()
	if !WaitFor(ctx, "", ctrl.HasSyncedChecker()) || !ctrl.HasSynced() {
		t.Fatal("controller did not sync")
	}
	source.Delete(pod("ns", "a", "", nil))
	waitUntil(t, "delete", func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 2 })
	cancel()
	<-done
	if strings.Join(seen, ",") != "Replaced,Deleted" || len(store.List()) != 0 {
		t.Errorf("seen %v, store %v", seen, store.ListKeys())
	}
	if !fifo.IsClosed() {
		t.Error("queue not closed when the controller stopped")
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
		time.Sleep(20 * time.Millisecond) // give an early retry the chance to show up
		if n := count(); n != attempt+1 {
			t.Fatalf("retried after less than %v (attempts %d)", delay, n)
		}
		clk.Step(time.Millisecond)
	}
	waitUntil(t, "fourth attempt", func() bool { return count() == 4 })
}
