package workqueue

import "hash/maphash"

// itemTable is a hash map from items to V, used instead of a Go map for the
// queues' bookkeeping. A work queue inserts and deletes keys in first-in,
// first-out order all the time; this table uses linear probing with
// backward-shift deletion, so deletions leave no tombstones and lookups stay
// short however long the churn goes on. It also lets Add and Done hash an
// item once per call instead of twice.
//
// The zero value is an empty table. It is not safe for concurrent use,
// except that hashOf may be called concurrently once the seed is set
// (see initSeed): callers hash items before they take their lock.
type itemTable[K comparable, V any] struct {
	seed  maphash.Seed
	slots []tableSlot[K, V] // length is zero or a power of two
	n     int               // used slots
}

// tableSlot is one slot; hash is zero when the slot is empty.
type tableSlot[K comparable, V any] struct {
	hash uint64 // full hash with the top bit set, so never zero
	key  K
	val  V
}

// minTableSlots is the size a table starts with. Like a Go map, a table
// never shrinks: queues drain and refill, and resizing back and forth would
// cost more than the memory it frees.
const minTableSlots = 16

// initSeed picks the hash seed. It must run before the table is shared;
// tables that skip it pick a seed on first insertion.
func (t *itemTable[K, V]) initSeed() {
	t.seed = maphash.MakeSeed()
}

// hashOf returns the hash that lookupHashed and upsertHashed expect for k.
func (t *itemTable[K, V]) hashOf(k K) uint64 {
	return maphash.Comparable(t.seed, k) | 1<<63
}

// find returns the index of k's slot, or of the empty slot where k would go.
// The table must have at least one empty slot.
func (t *itemTable[K, V]) find(k K, h uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.hash == 0 {
			return int(i), false
		}
		if s.hash == h && s.key == k {
			return int(i), true
		}
	}
}

// lookup returns the index of k's slot, or -1.
func (t *itemTable[K, V]) lookup(k K) int {
	if t.n == 0 {
		return -1
	}
	return t.lookupHashed(k, t.hashOf(k))
}

// lookupHashed is lookup with k's hash h already computed.
func (t *itemTable[K, V]) lookupHashed(k K, h uint64) int {
	if t.n == 0 {
		return -1
	}
	i, ok := t.find(k, h)
	if !ok {
		return -1
	}
	return i
}

// upsert returns the index of k's slot, inserting k with a zero value if it
// was absent, and whether it was present.
func (t *itemTable[K, V]) upsert(k K) (int, bool) {
	t.ensureSeed()
	return t.upsertHashed(k, t.hashOf(k))
}

// upsertHashed is upsert with k's hash h already computed.
func (t *itemTable[K, V]) upsertHashed(k K, h uint64) (int, bool) {
	if (t.n+1)*4 > len(t.slots)*3 { // keep the load factor at most 3/4
		t.resize(max(2*len(t.slots), minTableSlots))
	}
	i, ok := t.find(k, h)
	if !ok {
		t.slots[i].hash, t.slots[i].key = h, k
		t.n++
	}
	return i, ok
}

// removeAt empties slot i, shifting later slots of the same probe run back
// so that every key stays reachable from its home slot.
func (t *itemTable[K, V]) removeAt(i int) {
	mask := len(t.slots) - 1
	t.n--
	for {
		j := i
		for {
			j = (j + 1) & mask
			h := t.slots[j].hash
			if h == 0 {
				t.slots[i] = tableSlot[K, V]{}
				return
			}
			// The key at j may move to i unless its home slot lies
			// cyclically in (i, j].
			home := int(h) & mask
			if i <= j && (home <= i || home > j) || i > j && home <= i && home > j {
				t.slots[i] = t.slots[j]
				i = j
				break
			}
		}
	}
}

func (t *itemTable[K, V]) ensureSeed() {
	if t.seed == (maphash.Seed{}) {
		t.initSeed()
	}
}

// resize moves every key into a table of the given size.
func (t *itemTable[K, V]) resize(size int) {
	old := t.slots
	t.slots = make([]tableSlot[K, V], size)
	mask := uint64(size - 1)
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
