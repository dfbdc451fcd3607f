package workqueue

import (
	"testing"
	"time"
)

// start runs f on a goroutine of its own; the channel closes when f
// returns.
func start(f func()) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	return done
}

// awaitDone fails the test with failure if done has not closed after a
// generous time: the calls these tests wait for return at once, and only
// a deadlock would make them wait.
func awaitDone(t *testing.T, done <-chan struct{}, failure string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal(failure)
	}
}

// returnsWithin fails the test if f, run while the queue's lock is held,
// does not return at once.
func returnsWithin(t *testing.T, what string, f func()) {
	t.Helper()
	awaitDone(t, start(f), what+" did not return while the queue's lock was held")
}

// TestTypedPostedOperationsApplyInOrder: Adds and Dones made while another
// goroutine holds the queue's lock return at once and take effect, in the
// order they were made, before any later call sees the queue.
func TestTypedPostedOperationsApplyInOrder(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	q.Add("in-flight")
	if item, _ := q.Get(); item != "in-flight" {
		t.Fatalf("Get() = %q, want in-flight", item)
	}

	q.lock() // as a Get or Add would while it runs
	returnsWithin(t, "Add", func() { q.Add("a") })
	returnsWithin(t, "Add", func() { q.Add("in-flight") }) // marks it to be queued again
	returnsWithin(t, "Done", func() { q.Done("in-flight") })
	returnsWithin(t, "Add", func() { q.Add("b") })
	if q.waiting() != 0 {
		t.Fatalf("posted operations were applied while the lock was held by someone else")
	}
	q.unlock()

	q.Add("c")
	if n := q.Len(); n != 4 {
		t.Fatalf("Len() = %d, want 4", n)
	}
	for _, want := range []string{"a", "in-flight", "b", "c"} {
		if item, _ := q.Get(); item != want {
			t.Fatalf("Get() = %q, want %q", item, want)
		}
	}
}

// TestTypedPostedDoneReleasesDrain: a Done posted while ShutDownWithDrain
// waits for the lock is applied when the lock is released, and the drain
// completes.
func TestTypedPostedDoneReleasesDrain(t *testing.T) {
	q := NewTyped[string]()
	q.Add("x")
	q.Get()

	q.lock()
	returnsWithin(t, "Done", func() { q.Done("x") })
	drained := start(q.ShutDownWithDrain)
	q.unlock()
	awaitDone(t, drained, "ShutDownWithDrain still waits after the posted Done")
}

// TestTypedPostedAddWakesParkedGet: an Add posted while the lock is held
// reaches a Get that parks meanwhile.
func TestTypedPostedAddWakesParkedGet(t *testing.T) {
	q := NewTyped[string]()
	defer q.ShutDown()
	var item string
	got := start(func() { item, _ = q.Get() })
	// Let the Get park: it holds the lock only while it finds the queue
	// empty.
	for {
		q.lock()
		parked := q.idleGetters == 1
		if parked {
			returnsWithin(t, "Add", func() { q.Add("y") })
		}
		q.unlock()
		if parked {
			break
		}
		runtimeYield()
	}
	awaitDone(t, got, "the parked Get was not woken by the posted Add")
	if item != "y" {
		t.Fatalf("Get() = %q, want y", item)
	}
}

// TestTypedWithMetricsDoesNotPost: a queue that reports metrics applies
// every Add under its lock, so that the metrics' timestamps are taken when
// the call is made.
func TestTypedWithMetricsDoesNotPost(t *testing.T) {
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "posting", MetricsProvider: newRecordingProvider()})
	defer q.ShutDown()
	if q.posted.Post(postedOp[string]{item: "a"}) {
		t.Fatal("a queue with metrics accepted a posted operation")
	}
}
