package ring

import "testing"

// TestRingKeepsOrder interleaves pushes and pops so that the contents wrap
// around the buffer while it grows, and checks the FIFO order and Len.
func TestRingKeepsOrder(t *testing.T) {
	var r Ring[int]
	next, want := 0, 0
	for round := range 3 {
		for range 4096 {
			r.Push(next)
			next++
			if next%3 == 0 {
				if got := r.Pop(); got != want {
					t.Fatalf("round %d: Pop() = %d, want %d", round, got, want)
				}
				want++
			}
		}
		if r.Len() != next-want {
			t.Fatalf("round %d: Len() = %d, want %d", round, r.Len(), next-want)
		}
		for r.Len() > 0 {
			if got := r.Pop(); got != want {
				t.Fatalf("round %d: Pop() = %d, want %d", round, got, want)
			}
			want++
		}
	}
}

// TestRingCapacity checks when the buffer grows and shrinks: a backlog
// that keeps coming back keeps its buffer, a backlog that stays low for a
// whole window gives it back.
func TestRingCapacity(t *testing.T) {
	tests := []struct {
		name string
		// cycles of: push fill elements, then pop until low remain.
		cycles    int
		fill, low int
		// then pairs of one push and one pop, with low elements held.
		pairs   int
		wantCap int
	}{
		{name: "empty", wantCap: 0},
		{name: "small backlog stays at the minimum", cycles: 10, fill: 10, wantCap: minCapacity},
		{name: "recurring backlog keeps its buffer", cycles: 20, fill: 4096, wantCap: 4096},
		{name: "recurring backlog with a floor keeps its buffer", cycles: 20, fill: 5000, low: 100, wantCap: 8192},
		{name: "drained after a burst shrinks to the minimum", cycles: 1, fill: 4096, pairs: 4096, wantCap: minCapacity},
		{name: "one window is not enough to shrink", cycles: 1, fill: 4096, pairs: 100, wantCap: 4096},
		{name: "low after a burst shrinks to twice the peak", cycles: 1, fill: 4096, low: 100, pairs: 8192, wantCap: 256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Ring[int]
			next, want := 0, 0
			pop := func() {
				t.Helper()
				if got := r.Pop(); got != want {
					t.Fatalf("Pop() = %d, want %d", got, want)
				}
				want++
			}
			for range tt.cycles {
				for range tt.fill - r.Len() {
					r.Push(next)
					next++
				}
				for r.Len() > tt.low {
					pop()
				}
			}
			for range tt.pairs {
				r.Push(next)
				next++
				pop()
			}
			if len(r.buf) != tt.wantCap {
				t.Fatalf("capacity %d, want %d", len(r.buf), tt.wantCap)
			}
			if r.Len() != next-want {
				t.Fatalf("Len() = %d, want %d", r.Len(), next-want)
			}
		})
	}
}

// TestRingReleasesPoppedElements checks that a popped slot no longer
// references its element.
func TestRingReleasesPoppedElements(t *testing.T) {
	var r Ring[*int]
	r.Push(new(int))
	r.Pop()
	for i, p := range r.buf {
		if p != nil {
			t.Fatalf("slot %d still references a popped element", i)
		}
	}
}
