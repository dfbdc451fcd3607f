package sharding

import (
	"math/bits"
	"slices"
	"strconv"
)

// DefaultSlots is the number of equal slots the hash space is cut into when
// Config.Slots is zero.
const DefaultSlots = 64

// SlotRange returns slot i of total equal slots of the hash space. It
// panics unless 0 <= i < total; callers pass indexes they made.
func SlotRange(i, total int) Range {
	if total <= 0 || i < 0 || i >= total {
		panic("sharding: slot index out of range")
	}
	return Range{Start: slotBound(i, total), End: slotBound(i+1, total)}
}

// slotBound is floor(i * 2^64 / total); i == total gives 0, the top.
func slotBound(i, total int) uint64 {
	if i >= total {
		return 0
	}
	q, _ := bits.Div64(uint64(i), 0, uint64(total))
	return q
}

// SlotsSelector returns the selector of the given slots (indexes into total
// equal slots): their ranges in ascending order, adjacent slots merged.
func SlotsSelector(key Key, slots []int, total int) Selector {
	sorted := slices.Clone(slots)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	sel := Selector{Key: key}
	for _, s := range sorted {
		r := SlotRange(s, total)
		if n := len(sel.Ranges); n > 0 && sel.Ranges[n-1].End == r.Start && r.Start != 0 {
			sel.Ranges[n-1].End = r.End
			continue
		}
		sel.Ranges = append(sel.Ranges, r)
	}
	return sel
}

// SlotOf returns the slot of total equal slots that hash h falls in.
func SlotOf(h uint64, total int) int {
	// i = floor(h*total / 2^64) has slotBound(i) <= h; h may still be the
	// (rounded down) first value of slot i+1.
	hi, _ := bits.Mul64(h, uint64(total))
	i := int(hi)
	if i+1 < total && h >= slotBound(i+1, total) {
		i++
	}
	return i
}

// Assignment maps each slot to the member that should own it.
type Assignment struct {
	// Owners[i] is the owner of slot i; "" when there are no members.
	Owners []string
}

// SlotsOf returns the slots assigned to member, ascending.
func (a Assignment) SlotsOf(member string) []int {
	var out []int
	for i, o := range a.Owners {
		if o == member {
			out = append(out, i)
		}
	}
	return out
}

// Assign divides total slots among members. It is a pure function of the
// set of member names and total: every replica that sees the same members
// computes the same assignment. Each member gets total/len(members) slots
// or one more, and a change of one member moves about total/len(members)
// slots (between that and about twice as many, more for few slots per
// member, as capacities shift): every (member, slot) pair has a pseudo-random weight, and pairs
// are granted heaviest first to members with room left, so a slot stays
// with its member as long as that member keeps room for it.
func Assign(members []string, total int) Assignment {
	a := Assignment{Owners: make([]string, total)}
	names := slices.Clone(members)
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) == 0 || total <= 0 {
		return a
	}
	// Capacities: total/n each, one more for the total%n members with the
	// heaviest own weight.
	byWeight := slices.Clone(names)
	slices.SortFunc(byWeight, func(x, y string) int {
		return cmpDesc(mix64(Hash(x)), mix64(Hash(y)), x, y)
	})
	room := make(map[string]int, len(names))
	for i, m := range byWeight {
		room[m] = total / len(names)
		if i < total%len(names) {
			room[m]++
		}
	}
	type pair struct {
		member string
		slot   int
		weight uint64
	}
	pairs := make([]pair, 0, len(names)*total)
	for _, m := range names {
		hm := Hash(m)
		for s := 0; s < total; s++ {
			pairs = append(pairs, pair{m, s, weight(hm, s)})
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if c := cmpDesc(x.weight, y.weight, x.member, y.member); c != 0 {
			return c
		}
		return x.slot - y.slot
	})
	left := total
	for _, p := range pairs {
		if left == 0 {
			break
		}
		if a.Owners[p.slot] != "" || room[p.member] == 0 {
			continue
		}
		a.Owners[p.slot] = p.member
		room[p.member]--
		left--
	}
	return a
}

// cmpDesc orders by weight descending, then name ascending.
func cmpDesc(wx, wy uint64, x, y string) int {
	switch {
	case wx > wy:
		return -1
	case wx < wy:
		return 1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// weight is the pseudo-random weight of (member, slot).
func weight(memberHash uint64, slot int) uint64 {
	return mix64(memberHash ^ mix64(Hash(strconv.Itoa(slot))))
}

// mix64 is the splitmix64 finalizer: it spreads FNV's weak low bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
