package sharding

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("replica-%d", i)
	}
	return out
}

func TestAssignBalancedAndDeterministic(t *testing.T) {
	for _, tc := range []struct{ members, total int }{
		{1, 64}, {2, 64}, {3, 64}, {5, 64}, {7, 256}, {10, 1024}, {64, 64}, {70, 64},
	} {
		t.Run(fmt.Sprintf("%d of %d", tc.members, tc.total), func(t *testing.T) {
			ms := names(tc.members)
			a := Assign(ms, tc.total)
			// Any order, duplicates: the same answer.
			shuffled := slices.Clone(ms)
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			shuffled = append(shuffled, ms[0])
			if b := Assign(shuffled, tc.total); !slices.Equal(a.Owners, b.Owners) {
				t.Fatalf("assignment depends on the order of members")
			}
			lo, hi := tc.total/tc.members, (tc.total+tc.members-1)/tc.members
			sum := 0
			for _, m := range ms {
				n := len(a.SlotsOf(m))
				sum += n
				if n < lo || n > hi {
					t.Errorf("%s has %d slots, want %d..%d", m, n, lo, hi)
				}
			}
			if sum != tc.total {
				t.Errorf("%d slots assigned, want %d", sum, tc.total)
			}
		})
	}
	if a := Assign(nil, 8); slices.ContainsFunc(a.Owners, func(o string) bool { return o != "" }) {
		t.Errorf("no members: owners %v", a.Owners)
	}
}

// TestAssignMovesAboutOneNth checks that one member joining or leaving
// moves about total/N slots: each change at most 2.5 times the minimum plus
// two, and 1.6 times the minimum on average over ring sizes.
func TestAssignMovesAboutOneNth(t *testing.T) {
	for _, total := range []int{64, 256} {
		var movedSum, idealSum float64
		for n := 1; n <= 12; n++ {
			ms := names(n)
			before := Assign(ms, total)
			for _, tc := range []struct {
				name  string
				after []string
				ideal float64
			}{
				{"join", append(slices.Clone(ms), "newcomer"), float64(total) / float64(n+1)},
				{"leave", ms[1:], float64(total) / float64(n)},
			} {
				after := Assign(tc.after, total)
				moved := 0
				for i := range before.Owners {
					if before.Owners[i] != after.Owners[i] {
						moved++
					}
				}
				if limit := int(2.5*tc.ideal) + 2; float64(moved) < tc.ideal-1 || moved > limit {
					t.Errorf("%d slots, %d members, %s: %d moved, want %.1f..%d", total, n, tc.name, moved, tc.ideal, limit)
				}
				movedSum += float64(moved)
				idealSum += tc.ideal
			}
		}
		if movedSum > 1.6*idealSum {
			t.Errorf("%d slots: %.0f moved over all changes, minimum %.0f", total, movedSum, idealSum)
		}
	}
}

func TestSlotRanges(t *testing.T) {
	for _, total := range []int{1, 2, 3, 64, 1000} {
		var prev uint64
		for i := range total {
			r := SlotRange(i, total)
			if r.Start != prev {
				t.Fatalf("total %d slot %d starts at %#x, want %#x", total, i, r.Start, prev)
			}
			if !r.Contains(r.Start) || (r.End != 0 && r.Contains(r.End)) {
				t.Fatalf("total %d slot %d: bounds not half-open", total, i)
			}
			if SlotOf(r.Start, total) != i || (r.End != 0 && SlotOf(r.End-1, total) != i) {
				t.Fatalf("total %d slot %d: SlotOf disagrees with SlotRange", total, i)
			}
			prev = r.End
		}
		if prev != 0 {
			t.Fatalf("total %d: last slot ends at %#x, want the top", total, prev)
		}
	}
}

func TestSlotsSelector(t *testing.T) {
	tests := []struct {
		slots []int
		total int
		want  string
	}{
		{[]int{0}, 2, "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"},
		{[]int{1}, 2, "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')"},
		{[]int{1, 0}, 2, "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"},
		{[]int{0, 2, 3}, 4, "shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')"},
		{[]int{1, 1}, 4, "shardRange(object.metadata.uid, '0x4000000000000000', '0x8000000000000000')"},
	}
	for _, tc := range tests {
		if got := SlotsSelector(KeyUID, tc.slots, tc.total).String(); got != tc.want {
			t.Errorf("SlotsSelector(%v, %d) = %q, want %q", tc.slots, tc.total, got, tc.want)
		}
	}
}
