package lex

import (
	"hash/maphash"
	"sync/atomic"
)

// Interner shares the storage of strings that repeat across decoded
// objects (namespaces, label keys and values, images, field managers).
//
// It is a fixed-size, direct-mapped table: a string hashes to one slot, and
// a string that misses replaces the slot's previous one, so the table never
// holds more than its slot count of strings, each at most maxLen bytes, and
// high-cardinality values only cost the replaced entries. Slots are atomic
// pointers: lookups and replacements from concurrent decoders need no lock.
// Go strings are immutable, so handing one string to many objects changes
// nothing a program can observe.
type Interner struct {
	seed   maphash.Seed
	maxLen int
	mask   uint64
	slots  []atomic.Pointer[string]
}

// NewInterner returns a table of slots entries (rounded up to a power of
// two) that interns strings of at most maxLen bytes.
func NewInterner(slots, maxLen int) *Interner {
	n := 1
	for n < slots {
		n <<= 1
	}
	return &Interner{seed: maphash.MakeSeed(), maxLen: maxLen, mask: uint64(n - 1), slots: make([]atomic.Pointer[string], n)}
}

// Default is the table the generated decoders use: 8192 slots of strings up
// to 128 bytes, at most about 1.3 MB however many distinct strings pass.
var Default = NewInterner(8192, 128)

// String returns a string equal to b, shared with earlier calls when the
// table still holds it. A nil Interner allocates every string.
func (in *Interner) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if in == nil || len(b) > in.maxLen {
		return string(b)
	}
	slot := &in.slots[maphash.Bytes(in.seed, b)&in.mask]
	if p := slot.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	slot.Store(&s)
	return s
}
