package sharding

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// formatSlots writes ascending, distinct slots as "0-3,7,9-10".
func formatSlots(slots []int) string {
	var b strings.Builder
	for i := 0; i < len(slots); {
		j := i
		for j+1 < len(slots) && slots[j+1] == slots[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(slots[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(slots[j]))
		}
		i = j + 1
	}
	return b.String()
}

// parseSlots reads formatSlots' form; every slot must lie in [0, total).
// It returns the slots ascending and distinct.
func parseSlots(s string, total int) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("slot %q: %w", part, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("slot %q: %w", part, err)
			}
		}
		if a < 0 || b < a || b >= total {
			return nil, fmt.Errorf("slot %q outside [0, %d)", part, total)
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// slotSet is a set of slot indexes of one ring.
type slotSet map[int]struct{}

func newSlotSet(slots []int) slotSet {
	s := make(slotSet, len(slots))
	for _, v := range slots {
		s[v] = struct{}{}
	}
	return s
}

func (s slotSet) has(v int) bool { _, ok := s[v]; return ok }

// sorted returns the members ascending.
func (s slotSet) sorted() []int {
	out := make([]int, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

func (s slotSet) equal(o slotSet) bool {
	if len(s) != len(o) {
		return false
	}
	for v := range s {
		if !o.has(v) {
			return false
		}
	}
	return true
}
