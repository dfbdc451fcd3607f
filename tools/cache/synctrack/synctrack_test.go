package synctrack

import (
	"sync"
	"testing"
)

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestSingleFileTracker(t *testing.T) {
	tr := NewSingleFileTracker("items")
	tr.Start()
	tr.Start()
	tr.UpstreamHasSynced()
	if tr.HasSynced() || isClosed(tr.Done()) {
		t.Fatal("synced with two items outstanding")
	}
	tr.Finished()
	if tr.HasSynced() {
		t.Fatal("synced with one item outstanding")
	}
	tr.Finished()
	if !tr.HasSynced() || !isClosed(tr.Done()) {
		t.Fatal("not synced after all items finished")
	}
	if tr.Name() != "items" {
		t.Errorf("Name = %q", tr.Name())
	}
	defer func() {
		if recover() == nil {
			t.Error("Finished without Start must panic")
		}
	}()
	tr.Finished()
}

func TestSingleFileTrackerNeedsUpstream(t *testing.T) {
	tr := NewSingleFileTracker("")
	if tr.HasSynced() {
		t.Fatal("synced before upstream")
	}
	tr.UpstreamHasSynced()
	if !tr.HasSynced() {
		t.Fatal("empty initial list should sync at once")
	}
}

func TestAsyncTracker(t *testing.T) {
	tr := NewAsyncTracker[string]("keys")
	tr.Start("a")
	tr.Start("b")
	tr.Start("a") // same key twice counts once
	tr.UpstreamHasSynced()
	tr.Finished("a")
	if tr.HasSynced() {
		t.Fatal("synced with b outstanding")
	}
	tr.Finished("unknown") // harmless
	done := tr.Done()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); tr.Finished("b") }()
	<-done
	wg.Wait()
	if !tr.HasSynced() || tr.Name() != "keys" {
		t.Fatal("not synced after all keys finished")
	}
}

func TestLazy(t *testing.T) {
	calls := 0
	z := Lazy[int]{Evaluate: func() (int, error) { calls++; return calls, nil }}
	if v, _ := z.Get(); v != 1 {
		t.Fatalf("first Get = %d", v)
	}
	if v, _ := z.Get(); v != 1 || calls != 1 {
		t.Fatalf("cached Get = %d after %d calls", v, calls)
	}
	z.Notify()
	if v, _ := z.Get(); v != 2 {
		t.Fatalf("Get after Notify = %d", v)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = z.Get() }()
	}
	wg.Wait()
	if calls != 2 {
		t.Errorf("concurrent Gets re-evaluated: %d calls", calls)
	}
}
