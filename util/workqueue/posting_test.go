package workqueue

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/util/workqueue/internal/inbox"
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

// newPostingQueue returns a queue that posts, whatever the environment
// says of the fastpath.WorkqueueInbox switch.
func newPostingQueue() *Typed[string] {
	defer fastpath.WorkqueueInbox.Set(true)()
	return NewTyped[string]()
}

// TestTypedPostedOperationsApplyInOrder: Adds and Dones made while another
// goroutine holds the queue's lock return at once and take effect, in the
// order they were made, before any later call sees the queue.
func TestTypedPostedOperationsApplyInOrder(t *testing.T) {
	q := newPostingQueue()
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
	q := newPostingQueue()
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
	q := newPostingQueue()
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

// TestTypedWithMetricsPostsAndReturnsOnceApplied: on a queue with
// metrics, an Add or Done that finds the lock held posts its operation
// but returns only once the holder has applied it, so the metrics are
// updated before the call returns and its timestamps are those of the
// application, within the call, as on client-go (where the call waits
// for the lock and then updates them). The clock moves while the
// operation waits: a timestamp taken when the call was made would be a
// second early.
func TestTypedWithMetricsPostsAndReturnsOnceApplied(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(q *Typed[string])
		op    func(q *Typed[string])
		check func(t *testing.T, p *recordingProvider)
	}{
		{
			name:  "Add",
			setup: func(q *Typed[string]) {},
			op:    func(q *Typed[string]) { q.Add("a") },
			check: func(t *testing.T, p *recordingProvider) {
				if adds, depth := p.value("q/adds"), p.value("q/depth"); adds != 1 || depth != 1 {
					t.Fatalf("after Add returned: adds = %v, depth = %v, want 1, 1", adds, depth)
				}
			},
		},
		{
			name: "Done",
			setup: func(q *Typed[string]) {
				q.Add("a")
				q.Get()
			},
			op: func(q *Typed[string]) { q.Done("a") },
			check: func(t *testing.T, p *recordingProvider) {
				if got := p.observed("q/work"); !slices.Equal(got, []float64{1}) {
					t.Fatalf("after Done returned: work durations = %v, want [1]", got)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newRecordingProvider()
			c := testingclock.NewFakeClock(epoch)
			restore := fastpath.WorkqueueInbox.Set(true)
			q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "q", MetricsProvider: p, Clock: c})
			restore()
			defer q.ShutDown()
			tc.setup(q)

			q.lock()
			returned := start(func() { tc.op(q) })
			deadline := time.Now().Add(10 * time.Second)
			for !q.posted.Pending() {
				if time.Now().After(deadline) {
					q.unlock()
					t.Fatalf("%s did not post while the queue's lock was held", tc.name)
				}
				runtimeYield()
			}
			select {
			case <-returned:
				q.unlock()
				t.Fatalf("%s returned before its posted operation was applied", tc.name)
			default:
			}
			c.Step(time.Second)
			q.unlock()
			awaitDone(t, returned, tc.name+" did not return once the lock was released")
			tc.check(t, p)
		})
	}
}

// TestTypedWithMetricsUnderContention: producers and workers on a queue
// with metrics, posting as they contend; when they are through, the
// counters agree with what was done, whoever applied each operation.
func TestTypedWithMetricsUnderContention(t *testing.T) {
	const producers, workers, perProducer = 4, 4, 2000
	p := newRecordingProvider()
	restore := fastpath.WorkqueueInbox.Set(true)
	q := NewTypedWithConfig(TypedQueueConfig[string]{Name: "q", MetricsProvider: p})
	restore()
	var processed atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				processed.Add(1)
				q.Done(item)
			}
		})
	}
	var adders sync.WaitGroup
	for w := range producers {
		adders.Go(func() {
			for i := range perProducer {
				q.Add(fmt.Sprint(w, "-", i))
			}
		})
	}
	adders.Wait()
	q.ShutDownWithDrain()
	wg.Wait()
	const total = producers * perProducer
	if got := processed.Load(); got != total {
		t.Fatalf("processed %d items, want %d", got, total)
	}
	if adds, depth := p.value("q/adds"), p.value("q/depth"); adds != total || depth != 0 {
		t.Fatalf("adds = %v, depth = %v, want %d, 0", adds, depth, total)
	}
	if lat, work := len(p.observed("q/latency")), len(p.observed("q/work")); lat != total || work != total {
		t.Fatalf("%d latency and %d work observations, want %d each", lat, work, total)
	}
}

// TestTypedAddThatReturnedIsNeverLost holds one Add between claiming its
// inbox slot and writing it, while the queue's lock is held, and makes a
// second Add that posts behind it and returns. Whatever the next call to
// take the lock is, it must see the second Add: Len counts it, and after
// ShutDown the item is still there to Get (an Add applied after ShutDown
// is dropped).
func TestTypedAddThatReturnedIsNeverLost(t *testing.T) {
	for _, tc := range []struct {
		name string
		next func(q *Typed[string]) // the call after the lock is released
	}{
		{"Len", func(q *Typed[string]) {}},
		{"ShutDown", func(q *Typed[string]) { q.ShutDown() }},
		{"ShutDownWithDrain", func(q *Typed[string]) { q.ShutDownWithDrain() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newPostingQueue()
			defer q.ShutDown()
			claimed, release := make(chan struct{}), make(chan struct{})
			var claims atomic.Int32
			var releaseOnce sync.Once
			releaseFirst := func() { releaseOnce.Do(func() { close(release) }) }
			defer inbox.SetHooks(&inbox.Hooks{
				Claimed: func() {
					if claims.Add(1) == 1 { // the first Add only
						close(claimed)
						<-release
					}
				},
				// The fixed queue waits for the first Add's write here.
				Waiting: releaseFirst,
			})()

			q.lock()
			firstDone := start(func() { q.Add("first") })
			<-claimed
			returnsWithin(t, "Add", func() { q.Add("second") })
			q.unlock()
			tc.next(q)
			n := q.Len()
			releaseFirst() // the old queue never waited for it
			awaitDone(t, firstDone, "the first Add did not return")
			if n < 1 {
				t.Fatalf("Len() = %d after Add(%q) returned", n, "second")
			}
			var got []string
			for q.Len() > 0 {
				item, _ := q.Get()
				got = append(got, item)
				q.Done(item)
			}
			if !slices.Contains(got, "second") {
				t.Fatalf("Get handed out %q: the Add of %q that returned was lost", got, "second")
			}
		})
	}
}

// TestTypedInboxSwitch: a queue made with the fastpath.WorkqueueInbox
// switch off posts nothing (every Add and Done waits for the lock, as
// client-go's do) and works as a queue; one made with it on posts.
func TestTypedInboxSwitch(t *testing.T) {
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprintf("on=%v", on), func(t *testing.T) {
			restore := fastpath.WorkqueueInbox.Set(on)
			q := NewTyped[string]()
			restore() // the queue keeps what it was made with
			defer q.ShutDown()
			if posted := q.post(postedOp[string]{item: "posted"}); posted != on {
				t.Fatalf("post() = %v, want %v", posted, on)
			}
			if on {
				q.Get() // the posted item
			}
			var wg sync.WaitGroup
			for p := range 4 {
				wg.Go(func() {
					for i := range 500 {
						q.Add(fmt.Sprint(p, "-", i))
					}
				})
			}
			seen := map[string]bool{}
			for len(seen) < 4*500 {
				item, shutdown := q.Get()
				if shutdown {
					t.Fatal("queue shut down")
				}
				seen[item] = true
				q.Done(item)
			}
			wg.Wait()
			if n := q.Len(); n != 0 {
				t.Fatalf("Len() = %d after every item was processed", n)
			}
		})
	}
}
