package workqueue

import (
	"math/rand/v2"
	"testing"
)

// TestItemTableMatchesMap runs random inserts, updates and removals against
// an itemTable and a Go map and compares them after every step, across
// growth.
func TestItemTableMatchesMap(t *testing.T) {
	for _, keySpace := range []int{8, 100, 5000} {
		var tab itemTable[int, int]
		ref := map[int]int{}
		rng := rand.New(rand.NewPCG(uint64(keySpace), 7))
		for step := range 100000 {
			k := rng.IntN(keySpace)
			// Phases of mostly inserting and mostly removing make the
			// table grow and then run sparse.
			insert := rng.IntN(10) < 7
			if (step/10000)%2 == 1 {
				insert = !insert
			}
			if insert {
				i, existed := tab.upsert(k)
				if _, want := ref[k]; existed != want {
					t.Fatalf("keys %d step %d: upsert(%d) existed=%v, map says %v", keySpace, step, k, existed, want)
				}
				tab.slots[i].val = step
				ref[k] = step
			} else if i := tab.lookup(k); i >= 0 {
				if tab.slots[i].val != ref[k] {
					t.Fatalf("keys %d step %d: value %d, want %d", keySpace, step, tab.slots[i].val, ref[k])
				}
				tab.removeAt(i)
				delete(ref, k)
			} else if _, ok := ref[k]; ok {
				t.Fatalf("keys %d step %d: lookup(%d) missed a present key", keySpace, step, k)
			}
			if tab.n != len(ref) {
				t.Fatalf("keys %d step %d: %d keys, want %d", keySpace, step, tab.n, len(ref))
			}
		}
		for k := range keySpace {
			i := tab.lookup(k)
			v, ok := ref[k]
			if (i >= 0) != ok || ok && tab.slots[i].val != v {
				t.Fatalf("keys %d: final lookup(%d) disagrees with the map", keySpace, k)
			}
		}
	}
}

func TestItemTableInterfaceKeys(t *testing.T) {
	var tab itemTable[any, bool]
	keys := []any{"a", 1, int64(1), struct{ x int }{1}, nil, ""}
	for _, k := range keys {
		if _, existed := tab.upsert(k); existed {
			t.Fatalf("%#v reported present before insertion", k)
		}
	}
	for _, k := range keys {
		if tab.lookup(k) < 0 {
			t.Fatalf("%#v not found", k)
		}
	}
	if tab.lookup(int32(1)) >= 0 {
		t.Fatal("int32(1) found; keys of different types must differ")
	}
}
