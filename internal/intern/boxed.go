package intern

import (
	"hash/maphash"
	"sync/atomic"
)

// BoxedStrings is a table of strings held in interfaces, the string values
// of unstructured objects: a hit returns the interface the table holds, so
// that the string and its box are both shared. Like Strings it can be
// queried with the bytes of a string, which a decoder then allocates only
// on a miss. Build one with NewBoxedStrings.
//
// Each slot is an atomic.Value holding an interface whose dynamic type is
// string: storing the interface keeps the very box a hit returns, with no
// holder allocated around it.
type BoxedStrings struct {
	slots  []atomic.Value
	mask   uint64
	seed   maphash.Seed
	maxLen int
}

// NewBoxedStrings returns a table of about slots (rounded up to a power
// of two, at least two) non-empty strings of at most maxLen bytes each.
func NewBoxedStrings(slots, maxLen int) *BoxedStrings {
	n := 2
	for n < slots {
		n <<= 1
	}
	return &BoxedStrings{slots: make([]atomic.Value, n), mask: uint64(n - 1), seed: maphash.MakeSeed(), maxLen: maxLen}
}

// sharedBoxed is the process-wide table of boxed strings.
var sharedBoxed = NewBoxedStrings(stringSlots, maxStringLen)

// SharedBoxedStrings returns the process-wide table of boxed strings, which
// every Sharer from NewSharer uses. A decoder of unstructured objects
// should read string values through it: the cache then finds them shared
// already.
func SharedBoxedStrings() *BoxedStrings { return sharedBoxed }

// lookup returns the interface held in the set of hash h equal to s.
func (t *BoxedStrings) lookup(h uint64, s string) (any, bool) {
	set := h & t.mask &^ 1
	for i := set; i <= set+1; i++ {
		if held := t.slots[i].Load(); held != nil && held.(string) == s {
			return held, true
		}
	}
	return nil, false
}

// keep stores v, an interface holding a string of hash h, first in its
// set, moving the value there second, as Table does.
func (t *BoxedStrings) keep(h uint64, v any) {
	set := h & t.mask &^ 1
	if first := t.slots[set].Load(); first != nil {
		t.slots[set+1].Store(first)
	}
	t.slots[set].Store(v)
}

// FromBytes returns an interface holding a string equal to b: the table's
// when it has one, else a new one, which the table then keeps. A nil table,
// an empty b and one longer than the table's limit get a new interface.
func (t *BoxedStrings) FromBytes(b []byte) any {
	if t == nil || len(b) == 0 || len(b) > t.maxLen {
		return string(b)
	}
	h := maphash.Bytes(t.seed, b)
	if held, ok := t.lookup(h, string(b)); ok {
		return held
	}
	var v any = string(b)
	t.keep(h, v)
	return v
}

// Intern returns the table's interface equal to v if it has one, else v,
// which the table then keeps. v must hold a string; an empty one or one
// longer than the table's limit is returned unchanged, as is every value
// by a nil table.
func (t *BoxedStrings) Intern(v any) any {
	s := v.(string)
	if t == nil || len(s) == 0 || len(s) > t.maxLen {
		return v
	}
	h := maphash.String(t.seed, s)
	if held, ok := t.lookup(h, s); ok {
		return held
	}
	t.keep(h, v)
	return v
}

// Slots is the table's capacity: at most this many values are kept.
func (t *BoxedStrings) Slots() int { return len(t.slots) }

// Each calls fn with every string the table keeps. It is for tests and
// diagnostics: under concurrent use it is no consistent snapshot.
func (t *BoxedStrings) Each(fn func(v string)) {
	for i := range t.slots {
		if held := t.slots[i].Load(); held != nil {
			fn(held.(string))
		}
	}
}

// Clear empties the table (an empty string, which is never kept, takes
// every slot). Values it held stay valid for their holders.
func (t *BoxedStrings) Clear() {
	for i := range t.slots {
		t.slots[i].Store(any(""))
	}
}
