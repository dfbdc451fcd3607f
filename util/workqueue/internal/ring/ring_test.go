package ring

import "testing"

func TestRingGrowsWrapsAndShrinks(t *testing.T) {
	var r Ring[int]
	next, want := 0, 0
	pop := func(round int) {
		t.Helper()
		if got := r.Pop(); got != want {
			t.Fatalf("round %d: Pop() = %d, want %d", round, got, want)
		}
		want++
	}
	// Interleave pushes and pops so the contents wrap around the buffer
	// while it grows to 4096 and shrinks back.
	for round := range 3 {
		for range 4096 {
			r.Push(next)
			next++
			if next%3 == 0 {
				pop(round)
			}
		}
		if r.Len() != next-want {
			t.Fatalf("round %d: Len() = %d, want %d", round, r.Len(), next-want)
		}
		for r.Len() > 0 {
			pop(round)
		}
		if len(r.buf) > minCapacity {
			t.Fatalf("round %d: empty ring kept %d slots", round, len(r.buf))
		}
	}
}

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
