package delayheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHeapOrder(t *testing.T) {
	type sched struct {
		item    string
		readyAt int64
		first   bool // expected result of Schedule
	}
	tests := []struct {
		name  string
		steps []sched
		want  []string
	}{
		{name: "by ready time", steps: []sched{{"c", 30, true}, {"a", 10, true}, {"b", 20, false}}, want: []string{"a", "b", "c"}},
		{name: "ties in scheduling order", steps: []sched{{"x", 5, true}, {"y", 5, false}, {"z", 5, false}}, want: []string{"x", "y", "z"}},
		{name: "earlier time wins", steps: []sched{{"a", 10, true}, {"b", 20, false}, {"b", 5, true}}, want: []string{"b", "a"}},
		{name: "later time ignored", steps: []sched{{"a", 10, true}, {"b", 20, false}, {"a", 30, false}}, want: []string{"a", "b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h Heap[string]
			h.Init()
			for _, s := range tc.steps {
				if first := h.Schedule(s.item, h.Hash(s.item), s.readyAt); first != s.first {
					t.Fatalf("Schedule(%s, %d) first = %v", s.item, s.readyAt, first)
				}
			}
			var got []string
			for {
				item, ok := h.PopReady(1 << 62)
				if !ok {
					break
				}
				got = append(got, item)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("order %v, want %v", got, tc.want)
			}
		})
	}
}

func TestHeapPopReadyHonoursNow(t *testing.T) {
	var h Heap[int]
	h.Init()
	h.Schedule(1, h.Hash(1), 10)
	if _, ok := h.PopReady(9); ok {
		t.Fatal("item popped before its ready time")
	}
	if next, ok := h.Next(); !ok || next != 10 {
		t.Fatalf("Next() = %d %v", next, ok)
	}
	if item, ok := h.PopReady(10); !ok || item != 1 {
		t.Fatalf("PopReady(10) = %d %v", item, ok)
	}
	if _, ok := h.Next(); ok || h.Len() != 0 {
		t.Fatal("heap not empty")
	}
}

// TestHeapMatchesSort schedules random items over several pages of records
// and pops them against a sorted model, with reuse of popped records.
func TestHeapMatchesSort(t *testing.T) {
	var h Heap[int]
	h.Init()
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 3 {
		ready := map[int]int64{}
		for range 3 * recordsPerPage {
			item, at := rng.IntN(600), rng.Int64N(1000)
			if old, ok := ready[item]; !ok || at < old {
				ready[item] = at
			}
			h.Schedule(item, h.Hash(item), at)
		}
		if h.Len() != len(ready) {
			t.Fatalf("round %d: Len %d, want %d", round, h.Len(), len(ready))
		}
		var last int64 = -1
		for h.Len() > 0 {
			item, ok := h.PopReady(1000)
			if !ok {
				t.Fatalf("round %d: nothing ready", round)
			}
			if ready[item] < last {
				t.Fatalf("round %d: %d ready at %d after one at %d", round, item, ready[item], last)
			}
			last = ready[item]
			delete(ready, item)
		}
		if len(ready) != 0 {
			t.Fatalf("round %d: %d items never popped", round, len(ready))
		}
	}
	h.Schedule(1, h.Hash(1), 1)
	h.Clear()
	if h.Len() != 0 {
		t.Fatal("Clear left items")
	}
}
