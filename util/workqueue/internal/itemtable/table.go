// Package itemtable provides Table, a hash table from comparable keys to
// values, used by the work queues instead of a Go map.
//
// A work queue inserts and deletes keys in first-in, first-out order all
// the time. Table uses linear probing with backward-shift deletion, so
// deletions leave no tombstones and lookups stay short however long the
// churn goes on; and it lets a caller hash a key once, before taking its
// lock, and use the hash for several operations.
package itemtable

import "hash/maphash"

// Hash is a key's hash as Table computes it; it is never zero.
type Hash uint64

// Slot designates the place of a key in a Table. It stays valid until the
// next Insert or Delete.
type Slot int

// Table is a hash table from K to V. Call Init before any other method. A
// Table is not safe for concurrent use, except for Hash.
type Table[K comparable, V any] struct {
	seed  maphash.Seed
	slots []slot[K, V] // length is zero or a power of two
	n     int          // used slots
}

// slot is one entry; hash is zero when the slot is empty.
type slot[K comparable, V any] struct {
	hash Hash
	key  K
	val  V
}

// minSlots is the size a table starts with. Like a Go map, a table never
// shrinks: queues drain and refill, and resizing back and forth would cost
// more than the memory it frees.
const minSlots = 16

// Init picks the hash seed of an empty table.
func (t *Table[K, V]) Init() {
	t.seed = maphash.MakeSeed()
}

// Hash returns the hash of k that Find and Insert expect.
func (t *Table[K, V]) Hash(k K) Hash {
	return Hash(maphash.Comparable(t.seed, k) | 1<<63)
}

// Len returns the number of keys.
func (t *Table[K, V]) Len() int { return t.n }

// Value returns the value in slot s.
func (t *Table[K, V]) Value(s Slot) *V { return &t.slots[s].val }

// Key returns the key in slot s.
func (t *Table[K, V]) Key(s Slot) K { return t.slots[s].key }

// Find returns the slot of k, whose hash is h.
func (t *Table[K, V]) Find(k K, h Hash) (Slot, bool) {
	if t.n == 0 {
		return -1, false
	}
	i, ok := t.probe(k, h)
	if !ok {
		return -1, false
	}
	return i, true
}

// Insert returns the slot of k, whose hash is h, adding k with a zero
// value if it was absent; existed reports whether it was present.
func (t *Table[K, V]) Insert(k K, h Hash) (s Slot, existed bool) {
	if (t.n+1)*4 > len(t.slots)*3 { // keep the load factor at most 3/4
		t.resize(max(2*len(t.slots), minSlots))
	}
	i, ok := t.probe(k, h)
	if !ok {
		t.slots[i].hash, t.slots[i].key = h, k
		t.n++
	}
	return i, ok
}

// Delete empties slot s, shifting later slots of the same probe run back
// so that every key stays reachable from its home slot.
func (t *Table[K, V]) Delete(s Slot) {
	mask := len(t.slots) - 1
	hole := int(s)
	t.n--
	for next := (hole + 1) & mask; ; next = (next + 1) & mask {
		h := t.slots[next].hash
		if h == 0 {
			t.slots[hole] = slot[K, V]{}
			return
		}
		// The key at next may fill the hole unless its home slot lies
		// cyclically in (hole, next].
		if home := int(h) & mask; !between(hole, home, next) {
			t.slots[hole] = t.slots[next]
			hole = next
		}
	}
}

// between reports whether x lies cyclically in (lo, hi].
func between(lo, x, hi int) bool {
	if lo <= hi {
		return lo < x && x <= hi
	}
	return lo < x || x <= hi
}

// Clear removes every key; the seed stays, so Hash may keep being called
// concurrently.
func (t *Table[K, V]) Clear() {
	t.slots, t.n = nil, 0
}

// probe returns the slot of k, or the empty slot where k would go. The
// table must have at least one empty slot.
func (t *Table[K, V]) probe(k K, h Hash) (Slot, bool) {
	mask := Hash(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.hash == 0 {
			return Slot(i), false
		}
		if s.hash == h && s.key == k {
			return Slot(i), true
		}
	}
}

// resize moves every key into a table of the given size.
func (t *Table[K, V]) resize(size int) {
	old := t.slots
	t.slots = make([]slot[K, V], size)
	mask := Hash(size - 1)
	for _, s := range old {
		if s.hash == 0 {
			continue
		}
		i := s.hash & mask
		for t.slots[i].hash != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
