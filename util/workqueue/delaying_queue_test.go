package workqueue

import (
	"math"
	"slices"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newFakeDelaying[T comparable](t *testing.T) (TypedDelayingInterface[T], *testingclock.FakeClock) {
	t.Helper()
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{Clock: c})
	t.Cleanup(q.ShutDown)
	return q, c
}

// getN takes n items with Get, calling Done for each, and returns them.
func getN[T comparable](t *testing.T, q TypedInterface[T], n int) []T {
	t.Helper()
	var got []T
	for range n {
		item, shutdown := q.Get()
		if shutdown {
			t.Fatalf("queue shut down after %d of %d items", len(got), n)
		}
		q.Done(item)
		got = append(got, item)
	}
	return got
}

func TestDelayingOrderFollowsReadyTime(t *testing.T) {
	q, c := newFakeDelaying[string](t)
	q.AddAfter("c", 3*time.Second)
	q.AddAfter("a", 1*time.Second)
	q.AddAfter("b", 2*time.Second)
	q.AddAfter("a2", 1*time.Second) // same ready time as a: keeps insertion order
	q.AddAfter("late", time.Hour)
	if q.Len() != 0 {
		t.Fatalf("Len() = %d before any delay passed", q.Len())
	}
	c.Step(3 * time.Second)
	if got, want := getN(t, q, 4), []string{"a", "a2", "b", "c"}; !slices.Equal(got, want) {
		t.Fatalf("processed %q, want %q", got, want)
	}
	if q.Len() != 0 {
		t.Fatalf("Len() = %d: the item due in an hour was released early", q.Len())
	}
}

func TestDelayingReleasesOnlyDueItems(t *testing.T) {
	q, c := newFakeDelaying[string](t)
	q.AddAfter("marker", 5*time.Second)
	q.AddAfter("later", 10*time.Second)
	c.Step(5 * time.Second)
	// When the marker arrives the queue has looked at the clock at 5s, and
	// "later" was not due then.
	if got := getN(t, q, 1); got[0] != "marker" {
		t.Fatalf("first item %q, want marker", got[0])
	}
	if q.Len() != 0 {
		t.Fatalf("Len() = %d at 5s; later is due at 10s", q.Len())
	}
	c.Step(5 * time.Second)
	if got := getN(t, q, 1); got[0] != "later" {
		t.Fatalf("got %q, want later", got[0])
	}
}

func TestDelayingKeepsEarliestReadyTime(t *testing.T) {
	tests := []struct {
		name   string
		delays []time.Duration // successive AddAfter delays of one item
		dueAt  time.Duration
	}{
		{name: "earlier add wins", delays: []time.Duration{10 * time.Second, 2 * time.Second}, dueAt: 2 * time.Second},
		{name: "later add ignored", delays: []time.Duration{2 * time.Second, 10 * time.Second}, dueAt: 2 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, c := newFakeDelaying[string](t)
			for _, d := range tc.delays {
				q.AddAfter("x", d)
			}
			q.AddAfter("marker", tc.dueAt-time.Second)
			c.Step(tc.dueAt - time.Second)
			if got := getN(t, q, 1); got[0] != "marker" {
				t.Fatalf("got %q, want marker", got[0])
			}
			if q.Len() != 0 {
				t.Fatal("x released before its earliest ready time")
			}
			c.Step(time.Second)
			if got := getN(t, q, 1); got[0] != "x" {
				t.Fatalf("got %q, want x", got[0])
			}
			c.Step(time.Hour)
			q.AddAfter("end", time.Second)
			c.Step(time.Second)
			if got := getN(t, q, 1); got[0] != "end" {
				t.Fatalf("x was delivered twice: got %q, want end", got[0])
			}
		})
	}
}

func TestDelayingNonPositiveDelayAddsNow(t *testing.T) {
	q, _ := newFakeDelaying[int](t)
	q.AddAfter(1, 0)
	q.AddAfter(2, -time.Second)
	if q.Len() != 2 {
		t.Fatalf("Len() = %d, want 2 immediately", q.Len())
	}
}

func TestDelayingEarlierItemInterruptsWait(t *testing.T) {
	q, c := newFakeDelaying[string](t)
	q.AddAfter("slow", time.Hour)
	// Wait until the queue's goroutine sleeps until the hour is up, so the
	// next AddAfter must wake it to re-arm for an earlier time.
	for !c.HasWaiters() {
		runtimeYield()
	}
	q.AddAfter("fast", time.Second)
	c.Step(time.Second)
	if got := getN(t, q, 1); got[0] != "fast" {
		t.Fatalf("got %q, want fast", got[0])
	}
}

func TestDelayingShutDown(t *testing.T) {
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: c})
	q.AddAfter("waiting", time.Second)
	q.ShutDown()
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown() = false")
	}
	q.AddAfter("after", 0)
	c.Step(time.Minute)
	if _, shutdown := q.Get(); !shutdown {
		t.Fatal("Get handed out an item after shutdown; waiting items must be dropped")
	}
	if c.HasWaiters() {
		t.Fatal("the delay goroutine left a timer behind")
	}
}

func TestDelayingShutDownWithDrain(t *testing.T) {
	q, _ := newFakeDelaying[string](t)
	q.AddAfter("now", 0)
	item, _ := q.Get()
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	for !q.ShuttingDown() {
		runtimeYield()
	}
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned with an item in flight")
	default:
	}
	q.Done(item)
	<-drained
}

func TestDelayingCustomQueue(t *testing.T) {
	inner := NewTyped[string]()
	c := testingclock.NewFakeClock(epoch)
	q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: c, Queue: inner})
	defer q.ShutDown()
	q.AddAfter("x", time.Second)
	c.Step(time.Second)
	if item, _ := inner.Get(); item != "x" {
		t.Fatalf("inner queue got %q, want x", item)
	}
}

func TestDelayingHugeDelayNeverFires(t *testing.T) {
	q, c := newFakeDelaying[string](t)
	q.AddAfter("never", time.Duration(math.MaxInt64))
	q.AddAfter("marker", time.Second)
	c.Step(time.Second)
	if got := getN(t, q, 1); got[0] != "marker" {
		t.Fatalf("got %q, want marker; an overflowing delay must not make an item due", got[0])
	}
	if q.Len() != 0 {
		t.Fatal("the item with the maximal delay was released")
	}
}
