package inbox

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestInboxOrderAndCapacity posts and takes across several laps of the
// slots: elements come out in the order posted, a full inbox refuses a
// post, and an empty one has nothing to take.
func TestInboxOrderAndCapacity(t *testing.T) {
	var b Inbox[int]
	b.Init(4)
	next, want := 0, 0
	for lap := range 5 {
		for range 4 {
			if _, ok := b.Post(next); !ok {
				t.Fatalf("lap %d: Post(%d) refused with room left", lap, next)
			}
			next++
		}
		if _, ok := b.Post(-1); ok {
			t.Fatalf("lap %d: Post accepted a fifth element into 4 slots", lap)
		}
		for range 4 {
			if !b.Pending() {
				t.Fatalf("lap %d: Pending() = false with %d waiting", lap, next-want)
			}
			got, ok := b.Take()
			if !ok || got != want {
				t.Fatalf("lap %d: Take() = %d, %v, want %d, true", lap, got, ok, want)
			}
			want++
		}
		if b.Pending() {
			t.Fatalf("lap %d: Pending() = true on an empty inbox", lap)
		}
		if got, ok := b.Take(); ok {
			t.Fatalf("lap %d: Take() on an empty inbox = %d, true", lap, got)
		}
	}
}

// TestInboxTakeDropsReference: a taken slot keeps no reference to its
// element, so the inbox does not keep items alive.
func TestInboxTakeDropsReference(t *testing.T) {
	var b Inbox[*int]
	b.Init(2)
	b.Post(new(int))
	b.Take()
	for i := range b.slots {
		if b.slots[i].elem != nil {
			t.Fatalf("slot %d still references its element after Take", i)
		}
	}
}

// TestInboxUninitialized: an inbox never initialized refuses posts and
// has nothing to take (a work queue made with the inbox switch off
// never posts).
func TestInboxUninitialized(t *testing.T) {
	var b Inbox[string]
	if _, ok := b.Post("a"); ok || b.Pending() {
		t.Fatal("uninitialized inbox accepted a post or reported one pending")
	}
	if _, ok := b.Take(); ok {
		t.Fatal("uninitialized inbox handed out an element")
	}
}

// TestInboxConcurrentPosters: posters race one another and a taker that
// holds a lock, as in a work queue; every element posted is taken exactly
// once, and each poster's elements come out in the order it posted them.
func TestInboxConcurrentPosters(t *testing.T) {
	const posters, each = 4, 20000
	type elem struct{ poster, seq int }
	var b Inbox[elem]
	b.Init(16)
	var mu sync.Mutex // the taker's lock
	next := make([]int, posters)
	taken := 0
	take := func() {
		for {
			e, ok := b.Take()
			if !ok {
				return
			}
			if e.seq != next[e.poster] {
				t.Errorf("poster %d: took element %d, want %d", e.poster, e.seq, next[e.poster])
			}
			next[e.poster]++
			taken++
		}
	}
	var wg sync.WaitGroup
	for p := range posters {
		wg.Go(func() {
			for i := 0; i < each; {
				if _, ok := b.Post(elem{p, i}); ok {
					i++
				}
				if mu.TryLock() {
					take()
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	mu.Lock()
	take()
	mu.Unlock()
	if taken != posters*each {
		t.Fatalf("took %d elements, want %d", taken, posters*each)
	}
}

// TestInboxTakeWaitsForAClaimedSlot holds a poster between claiming its
// slot and writing it while a second poster posts behind it: Take must
// not report the inbox empty, nor Pending report nothing pending, while a
// Post that returned waits in it; it waits for the first poster's write
// and then hands out both elements in order.
func TestInboxTakeWaitsForAClaimedSlot(t *testing.T) {
	var b Inbox[string]
	b.Init(4)
	claimed, release := make(chan struct{}), make(chan struct{})
	var claims atomic.Int32
	var releaseOnce sync.Once
	defer SetHooks(&Hooks{
		Claimed: func() {
			if claims.Add(1) == 1 { // the first poster only
				close(claimed)
				<-release
			}
		},
		Waiting: func() { releaseOnce.Do(func() { close(release) }) },
	})()
	firstDone := make(chan struct{})
	go func() {
		defer close(firstDone)
		b.Post("first")
	}()
	<-claimed
	if _, ok := b.Post("second"); !ok {
		t.Fatal("Post refused with room left")
	}
	if !b.Pending() {
		t.Error("Pending() = false after a Post returned")
	}
	var got []string
	for {
		e, ok := b.Take()
		if !ok {
			break
		}
		got = append(got, e)
	}
	releaseOnce.Do(func() { close(release) }) // if Take did not wait
	<-firstDone
	if want := []string{"first", "second"}; !slices.Equal(got, want) {
		t.Fatalf("took %q, want %q", got, want)
	}
}

// TestInboxSettled: a ticket is settled only once its element, and every
// element posted before it, has been taken and Settle called after it.
func TestInboxSettled(t *testing.T) {
	var b Inbox[string]
	b.Init(4)
	first, _ := b.Post("first")
	second, _ := b.Post("second")
	for _, step := range []struct {
		name                  string
		do                    func()
		wantFirst, wantSecond bool
	}{
		{"posted", func() {}, false, false},
		{"first taken", func() { b.Take() }, false, false},
		{"first settled", b.Settle, true, false},
		{"second taken", func() { b.Take() }, true, false},
		{"second settled", b.Settle, true, true},
	} {
		step.do()
		if got := b.Settled(first); got != step.wantFirst {
			t.Fatalf("%s: Settled(first) = %v, want %v", step.name, got, step.wantFirst)
		}
		if got := b.Settled(second); got != step.wantSecond {
			t.Fatalf("%s: Settled(second) = %v, want %v", step.name, got, step.wantSecond)
		}
	}
}
