package itemtable

import (
	"math/rand/v2"
	"testing"
)

// TestTableMatchesMap runs random inserts, updates and deletions against a
// Table and a Go map and compares them after every step, across growth and
// across runs of deletions that shift probe chains back.
func TestTableMatchesMap(t *testing.T) {
	for _, keySpace := range []int{8, 100, 5000} {
		var tab Table[int, int]
		tab.Init()
		ref := map[int]int{}
		rng := rand.New(rand.NewPCG(uint64(keySpace), 7))
		for step := range 100000 {
			k := rng.IntN(keySpace)
			h := tab.Hash(k)
			// Phases of mostly inserting and mostly deleting make the
			// table grow and then run sparse.
			insert := rng.IntN(10) < 7
			if (step/10000)%2 == 1 {
				insert = !insert
			}
			if insert {
				s, existed := tab.Insert(k, h)
				if _, want := ref[k]; existed != want {
					t.Fatalf("keys %d step %d: Insert(%d) existed=%v, map says %v", keySpace, step, k, existed, want)
				}
				*tab.Value(s) = step
				ref[k] = step
			} else if s, ok := tab.Find(k, h); ok {
				if got := *tab.Value(s); got != ref[k] || tab.Key(s) != k {
					t.Fatalf("keys %d step %d: slot holds %d=%d, want %d=%d", keySpace, step, tab.Key(s), got, k, ref[k])
				}
				tab.Delete(s)
				delete(ref, k)
			} else if _, ok := ref[k]; ok {
				t.Fatalf("keys %d step %d: Find(%d) missed a present key", keySpace, step, k)
			}
			if tab.Len() != len(ref) {
				t.Fatalf("keys %d step %d: %d keys, want %d", keySpace, step, tab.Len(), len(ref))
			}
		}
		for k := range keySpace {
			s, found := tab.Find(k, tab.Hash(k))
			v, ok := ref[k]
			if found != ok || ok && *tab.Value(s) != v {
				t.Fatalf("keys %d: final Find(%d) disagrees with the map", keySpace, k)
			}
		}
		tab.Clear()
		if _, ok := tab.Find(0, tab.Hash(0)); ok || tab.Len() != 0 {
			t.Fatalf("keys %d: Clear left keys", keySpace)
		}
	}
}

func TestTableInterfaceKeys(t *testing.T) {
	var tab Table[any, bool]
	tab.Init()
	keys := []any{"a", 1, int64(1), struct{ x int }{1}, nil, ""}
	for _, k := range keys {
		if _, existed := tab.Insert(k, tab.Hash(k)); existed {
			t.Fatalf("%#v reported present before insertion", k)
		}
	}
	for _, k := range keys {
		if _, ok := tab.Find(k, tab.Hash(k)); !ok {
			t.Fatalf("%#v not found", k)
		}
	}
	if _, ok := tab.Find(int32(1), tab.Hash(int32(1))); ok {
		t.Fatal("int32(1) found; keys of different types must differ")
	}
}

func TestBetweenIsCyclic(t *testing.T) {
	tests := []struct {
		lo, x, hi int
		want      bool
	}{
		{2, 3, 5, true}, {2, 2, 5, false}, {2, 5, 5, true}, {2, 6, 5, false},
		{6, 7, 1, true}, {6, 0, 1, true}, {6, 1, 1, true}, {6, 2, 1, false}, {6, 6, 1, false},
	}
	for _, tc := range tests {
		if got := between(tc.lo, tc.x, tc.hi); got != tc.want {
			t.Errorf("between(%d, %d, %d) = %v", tc.lo, tc.x, tc.hi, got)
		}
	}
}
