package workqueue

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// drainNow takes every waiting item with Get and calls Done for each, and
// returns them in order. It must only be used when Len() items are waiting.
func drainNow[T comparable](t *testing.T, q *Typed[T]) []T {
	t.Helper()
	var got []T
	for q.Len() > 0 {
		item, shutdown := q.Get()
		if shutdown {
			t.Fatalf("Get reported shutdown with %d items waiting", q.Len())
		}
		got = append(got, item)
		q.Done(item)
	}
	return got
}

func TestTypedOrderAndDeduplication(t *testing.T) {
	tests := []struct {
		name string
		adds []string
		want []string
	}{
		{name: "fifo", adds: []string{"a", "b", "c"}, want: []string{"a", "b", "c"}},
		{name: "duplicates collapse in first position", adds: []string{"a", "b", "a", "c", "b"}, want: []string{"a", "b", "c"}},
		{name: "single", adds: []string{"x", "x", "x"}, want: []string{"x"}},
		{name: "empty key is an item too", adds: []string{"", "a", ""}, want: []string{"", "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, q := range []*Typed[string]{
				NewTyped[string](),
				NewTypedWithConfig(TypedQueueConfig[string]{Queue: DefaultQueue[string]()}),
			} {
				for _, a := range tc.adds {
					q.Add(a)
				}
				if got := q.Len(); got != len(tc.want) {
					t.Fatalf("Len() = %d, want %d", got, len(tc.want))
				}
				if got := drainNow(t, q); !slices.Equal(got, tc.want) {
					t.Fatalf("processed %q, want %q", got, tc.want)
				}
				q.ShutDown()
			}
		})
	}
}

func TestTypedReAddWhileProcessing(t *testing.T) {
	for _, custom := range []bool{false, true} {
		cfg := TypedQueueConfig[int]{}
		if custom {
			cfg.Queue = DefaultQueue[int]()
		}
		q := NewTypedWithConfig(cfg)

		q.Add(1)
		item, _ := q.Get()
		if q.Len() != 0 {
			t.Fatalf("custom=%v: Len() = %d while the only item is in flight", custom, q.Len())
		}
		q.Add(1) // re-added while in flight: must not be handed out yet
		q.Add(1) // and only once
		if q.Len() != 0 {
			t.Fatalf("custom=%v: in-flight item was queued again before Done (Len %d)", custom, q.Len())
		}
		q.Add(2)
		if got, _ := q.Get(); got != 2 {
			t.Fatalf("custom=%v: Get() = %d, want 2", custom, got)
		}
		q.Done(2)
		q.Done(item)
		if q.Len() != 1 {
			t.Fatalf("custom=%v: after Done the re-added item should wait once, Len() = %d", custom, q.Len())
		}
		if got, _ := q.Get(); got != 1 {
			t.Fatalf("custom=%v: Get() = %d, want 1", custom, got)
		}
		q.Done(1)
		q.Done(1) // a second Done for an item not in flight is ignored
		if q.Len() != 0 {
			t.Fatalf("custom=%v: Len() = %d after everything was done", custom, q.Len())
		}
		q.ShutDown()
	}
}

func TestTypedDoneForUnknownItemIsIgnored(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("queued")
	q.Done("queued")  // queued, not in flight
	q.Done("missing") // never added
	if got := drainNow(t, q); !slices.Equal(got, []string{"queued"}) {
		t.Fatalf("processed %q, want exactly one queued", got)
	}
}

func TestTypedShutDown(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	q.Add("b")
	if q.ShuttingDown() {
		t.Fatal("ShuttingDown() before ShutDown")
	}
	q.ShutDown()
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown() = false after ShutDown")
	}
	q.Add("c") // ignored after shutdown
	for _, want := range []string{"a", "b"} {
		got, shutdown := q.Get()
		if shutdown || got != want {
			t.Fatalf("Get() = %q, %v; want %q, false (items queued before shutdown are still handed out)", got, shutdown, want)
		}
		q.Done(got)
	}
	if got, shutdown := q.Get(); !shutdown || got != "" {
		t.Fatalf("Get() on a drained, shut down queue = %q, %v; want zero, true", got, shutdown)
	}
	q.ShutDown() // idempotent
}

func TestTypedShutDownWakesBlockedGetters(t *testing.T) {
	q := NewTyped[int]()
	results := make(chan bool, 3)
	for range 3 {
		go func() {
			_, shutdown := q.Get()
			results <- shutdown
		}()
	}
	q.ShutDown()
	for range 3 {
		if !<-results {
			t.Fatal("blocked Get returned an item from an empty queue")
		}
	}
}

func TestTypedGetBlocksUntilAdd(t *testing.T) {
	q := NewTyped[int]()
	defer q.ShutDown()
	got := make(chan int)
	go func() {
		item, _ := q.Get()
		got <- item
	}()
	select {
	case item := <-got:
		t.Fatalf("Get returned %d from an empty queue", item)
	default:
	}
	q.Add(7)
	if item := <-got; item != 7 {
		t.Fatalf("Get() = %d, want 7", item)
	}
}

func TestTypedShutDownWithDrainWaitsForInFlight(t *testing.T) {
	q := NewTyped[string]()
	q.Add("slow")
	item, _ := q.Get()

	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	// Adds are refused once the drain has begun.
	for !q.ShuttingDown() {
		runtimeYield()
	}
	q.Add("late")
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while an item was in flight")
	default:
	}
	q.Done(item)
	<-drained
	if q.Len() != 0 {
		t.Fatalf("item added during the drain was queued (Len %d)", q.Len())
	}
}

func TestTypedShutDownWithDrainProcessesRequeuedItem(t *testing.T) {
	q := NewTyped[string]()
	q.Add("a")
	item, _ := q.Get()
	q.Add("a") // dirty: must run once more even though the drain starts

	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	for !q.ShuttingDown() {
		runtimeYield()
	}
	q.Done(item)
	again, shutdown := q.Get()
	if shutdown || again != "a" {
		t.Fatalf("Get() = %q, %v; want the re-added item", again, shutdown)
	}
	select {
	case <-drained:
		t.Fatal("ShutDownWithDrain returned while the re-added item was in flight")
	default:
	}
	q.Done(again)
	<-drained
}

func TestTypedShutDownReleasesDrain(t *testing.T) {
	q := NewTyped[int]()
	q.Add(1)
	q.Get() // never Done
	drained := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(drained)
	}()
	for !q.ShuttingDown() {
		runtimeYield()
	}
	q.ShutDown()
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
		t.Fatal("ShutDown did not release ShutDownWithDrain")
	}
}

func TestTypedNeverHandsOutAnItemTwiceAtOnce(t *testing.T) {
	const workers, rounds, keys = 8, 2000, 16
	q := NewTyped[int]()
	var mu sync.Mutex
	inFlight := map[int]bool{}
	var violations []int

	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				mu.Lock()
				if inFlight[item] {
					violations = append(violations, item)
				}
				inFlight[item] = true
				mu.Unlock()
				q.Add(item) // re-add while in flight
				mu.Lock()
				inFlight[item] = false
				mu.Unlock()
				q.Done(item)
			}
		})
	}
	for i := range rounds {
		q.Add(i % keys)
	}
	q.ShutDown() // workers stop once the queue is empty
	wg.Wait()
	if len(violations) > 0 {
		t.Fatalf("items handed to two workers at once: %v", violations)
	}
}

// touchRecorder is a custom Queue that records Touch calls.
type touchRecorder struct {
	Queue[string]
	touched []string
}

func (r *touchRecorder) Touch(item string) {
	r.touched = append(r.touched, item)
	r.Queue.Touch(item)
}

func TestTypedCustomQueueTouch(t *testing.T) {
	rec := &touchRecorder{Queue: DefaultQueue[string]()}
	q := NewTypedWithConfig(TypedQueueConfig[string]{Queue: rec})
	defer q.ShutDown()
	q.Add("a")
	q.Add("a") // waiting: Touch
	item, _ := q.Get()
	q.Add("a") // in flight: no Touch
	q.Add("a")
	q.Done(item)
	q.Add("a") // waiting again: Touch
	if want := []string{"a", "a"}; !slices.Equal(rec.touched, want) {
		t.Fatalf("Touch calls = %q, want %q", rec.touched, want)
	}
}
