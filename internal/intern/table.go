package intern

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"
)

// Table interns values of type T (string or []byte). Each value hashes to
// a set of two slots; a hit returns the copy held there, a miss stores the
// argument in one of the two and returns it. The zero Table is unusable;
// see NewStrings and NewBytes.
type Table[T string | []byte] struct {
	seed   maphash.Seed
	slots  []atomic.Pointer[T]
	mask   uint64
	maxLen int
	hash   func(maphash.Seed, T) uint64
	equal  func(a, b T) bool
}

// NewStrings returns a table of about slots strings (rounded up to a power
// of two) of at most maxLen bytes each.
func NewStrings(slots, maxLen int) *Table[string] {
	return newTable(slots, maxLen, maphash.String, func(a, b string) bool { return a == b })
}

// NewBytes returns a table of about slots byte slices (rounded up to a
// power of two) of at most maxLen bytes each. The slices it returns are
// shared: nobody may write into them.
func NewBytes(slots, maxLen int) *Table[[]byte] {
	return newTable(slots, maxLen, maphash.Bytes, bytes.Equal)
}

func newTable[T string | []byte](slots, maxLen int, hash func(maphash.Seed, T) uint64, equal func(a, b T) bool) *Table[T] {
	n := 2
	for n < slots {
		n <<= 1
	}
	return &Table[T]{
		seed:   maphash.MakeSeed(),
		slots:  make([]atomic.Pointer[T], n),
		mask:   uint64(n - 1),
		maxLen: maxLen,
		hash:   hash,
		equal:  equal,
	}
}

// Intern returns the table's copy of v if it has one, else v, which it
// then keeps (evicting another value of v's set). Empty values and values
// longer than the table's limit are returned unchanged and not kept.
func (t *Table[T]) Intern(v T) T {
	if len(v) == 0 || len(v) > t.maxLen {
		return v
	}
	h := t.hash(t.seed, v)
	set := h & t.mask &^ 1
	for i := set; i <= set+1; i++ {
		if held := t.slots[i].Load(); held != nil && t.equal(*held, v) {
			return *held
		}
	}
	// The top bit of the hash picks the slot to take over, so that two
	// values that share a set and alternate can both stay.
	t.slots[set+h>>63].Store(&v)
	return v
}

// Slots is the table's capacity: at most this many values are kept.
func (t *Table[T]) Slots() int { return len(t.slots) }

// Held counts the values the table keeps and their total length. It is
// for tests and diagnostics; it is not a consistent snapshot under
// concurrent use.
func (t *Table[T]) Held() (values, totalLen int) {
	for i := range t.slots {
		if held := t.slots[i].Load(); held != nil {
			values++
			totalLen += len(*held)
		}
	}
	return values, totalLen
}
