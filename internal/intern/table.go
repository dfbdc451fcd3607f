package intern

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"
)

// Table interns values of type T. Each value hashes to a set of two slots;
// a hit returns the copy held there, a miss stores the argument in one of
// the two and returns it. Build one with NewBytes or NewTable
// (NewStrings builds the string table, which has a lookup by bytes too).
type Table[T any] struct {
	slots []atomic.Pointer[T]
	mask  uint64
	// hash returns v's hash and whether v may be kept at all.
	hash  func(v T) (uint64, bool)
	equal func(a, b T) bool
}

// NewTable returns a table of about slots values (rounded up to a power of
// two, at least two). hash returns a value's hash and whether the table
// may keep it; equal tells whether two values with the same hash are
// interchangeable.
func NewTable[T any](slots int, hash func(v T) (uint64, bool), equal func(a, b T) bool) *Table[T] {
	n := 2
	for n < slots {
		n <<= 1
	}
	return &Table[T]{slots: make([]atomic.Pointer[T], n), mask: uint64(n - 1), hash: hash, equal: equal}
}

// NewBytes returns a table of about slots non-empty byte slices of at most
// maxLen bytes each. The slices it returns are shared: nobody may write
// into them.
func NewBytes(slots, maxLen int) *Table[[]byte] {
	seed := maphash.MakeSeed()
	return NewTable(slots, func(b []byte) (uint64, bool) {
		if len(b) == 0 || len(b) > maxLen {
			return 0, false
		}
		return maphash.Bytes(seed, b), true
	}, bytes.Equal)
}

// Intern returns the table's copy of v if it has one, else v, which it
// then keeps (evicting another value of v's set). A value the table may
// not keep is returned unchanged.
func (t *Table[T]) Intern(v T) T {
	h, ok := t.hash(v)
	if !ok {
		return v
	}
	set := h & t.mask &^ 1
	for i := set; i <= set+1; i++ {
		if held := t.slots[i].Load(); held != nil && t.equal(*held, v) {
			return *held
		}
	}
	held := new(T) // not &v: that would move every argument to the heap
	*held = v
	t.keep(set, held)
	return v
}

// keep stores held first in set, moving the value there second (and
// evicting the second): the last two values stored in a set both stay, so
// two values that share a set and alternate do not evict each other.
// Concurrent lookups may miss during the move, which only costs sharing.
func (t *Table[T]) keep(set uint64, held *T) {
	if first := t.slots[set].Load(); first != nil {
		t.slots[set+1].Store(first)
	}
	t.slots[set].Store(held)
}

// Find returns the table's copy of v, if it has one, without keeping v.
func (t *Table[T]) Find(v T) (T, bool) {
	if h, ok := t.hash(v); ok {
		set := h & t.mask &^ 1
		for i := set; i <= set+1; i++ {
			if held := t.slots[i].Load(); held != nil && t.equal(*held, v) {
				return *held, true
			}
		}
	}
	return v, false
}

// Slots is the table's capacity: at most this many values are kept.
func (t *Table[T]) Slots() int { return len(t.slots) }

// Each calls fn with every value the table keeps. It is for tests and
// diagnostics: under concurrent use it is no consistent snapshot.
func (t *Table[T]) Each(fn func(v T)) {
	for i := range t.slots {
		if held := t.slots[i].Load(); held != nil {
			fn(*held)
		}
	}
}

// Clear empties the table. Values it held stay valid for their holders.
func (t *Table[T]) Clear() {
	for i := range t.slots {
		t.slots[i].Store(nil)
	}
}
