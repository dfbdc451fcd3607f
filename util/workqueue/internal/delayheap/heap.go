// Package delayheap provides Heap, the items of a delaying work queue
// ordered by the time they become ready.
package delayheap

import "github.com/kubeclient/client-go/util/workqueue/internal/itemtable"

// Hash is an item's hash; see Heap.Hash.
type Hash = itemtable.Hash

// Heap is a min-heap of distinct items ordered by ready time, items with
// equal ready times in the order they were scheduled. Ready times are
// plain integers (a delaying queue uses nanoseconds since its start).
//
// Each item has a record that remembers its place in the heap, found
// through a hash table, so that scheduling an item again is a lookup and
// one sift. Records are carved out of pages and reused, so that a busy
// queue allocates nothing in steady state and growing the heap never moves
// a record. A Heap is not safe for concurrent use, except for Hash.
type Heap[T comparable] struct {
	nodes  []node[T]
	byItem itemtable.Table[T, *record[T]]
	free   []*record[T]
	seq    uint64 // scheduling counter, orders equal ready times
}

// record is what a Heap keeps of one item.
type record[T comparable] struct {
	item T
	seq  uint64 // when it was first scheduled
	pos  int    // index of its node
}

// node is one heap entry; it carries the ready time so that sifting
// mostly reads only the nodes slice.
type node[T comparable] struct {
	readyAt int64
	rec     *record[T]
}

func (a *node[T]) before(b *node[T]) bool {
	if a.readyAt != b.readyAt {
		return a.readyAt < b.readyAt
	}
	return a.rec.seq < b.rec.seq
}

// recordsPerPage is how many records are allocated at once.
const recordsPerPage = 256

// Init prepares an empty heap.
func (h *Heap[T]) Init() { h.byItem.Init() }

// Hash returns item's hash, which Schedule takes so that callers can
// compute it before taking their lock. It is safe for concurrent use.
func (h *Heap[T]) Hash(item T) Hash { return h.byItem.Hash(item) }

// Len returns the number of items.
func (h *Heap[T]) Len() int { return len(h.nodes) }

// Schedule makes item, whose hash is hash, ready at readyAt; an item that
// is in the heap already keeps the earlier of its two ready times. It
// reports whether the earliest ready time changed to readyAt.
func (h *Heap[T]) Schedule(item T, hash Hash, readyAt int64) (first bool) {
	slot, known := h.byItem.Insert(item, hash)
	rec := h.byItem.Value(slot)
	if known {
		n := &h.nodes[(*rec).pos]
		if readyAt >= n.readyAt {
			return false // nothing moved
		}
		n.readyAt = readyAt
	} else {
		*rec = h.newRecord(item)
		h.nodes = append(h.nodes, node[T]{readyAt: readyAt, rec: *rec})
	}
	h.up((*rec).pos)
	return (*rec).pos == 0
}

// Next returns the earliest ready time; ok is false when the heap is empty.
func (h *Heap[T]) Next() (readyAt int64, ok bool) {
	if len(h.nodes) == 0 {
		return 0, false
	}
	return h.nodes[0].readyAt, true
}

// PopReady removes and returns the first item if it is ready at now.
func (h *Heap[T]) PopReady(now int64) (item T, ok bool) {
	if len(h.nodes) == 0 || h.nodes[0].readyAt > now {
		return item, false
	}
	rec := h.nodes[0].rec
	last := len(h.nodes) - 1
	h.swap(0, last)
	h.nodes[last] = node[T]{}
	h.nodes = h.nodes[:last]
	if last > 0 {
		h.down(0)
	}
	item = rec.item
	if slot, found := h.byItem.Find(item, h.byItem.Hash(item)); found {
		h.byItem.Delete(slot)
	}
	*rec = record[T]{}
	h.free = append(h.free, rec)
	return item, true
}

// Clear drops every item and the spare records. Hash stays usable.
func (h *Heap[T]) Clear() {
	h.nodes, h.free = nil, nil
	h.byItem.Clear()
}

// newRecord takes a spare record for item, placed at the end of the heap.
func (h *Heap[T]) newRecord(item T) *record[T] {
	if len(h.free) == 0 {
		page := make([]record[T], recordsPerPage)
		for i := range page {
			h.free = append(h.free, &page[i])
		}
	}
	rec := h.free[len(h.free)-1]
	h.free = h.free[:len(h.free)-1]
	*rec = record[T]{item: item, seq: h.seq, pos: len(h.nodes)}
	h.seq++
	return rec
}

func (h *Heap[T]) swap(i, j int) {
	n := h.nodes
	n[i], n[j] = n[j], n[i]
	n[i].rec.pos = i
	n[j].rec.pos = j
}

// up moves node i towards the root while it is before its parent.
func (h *Heap[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.nodes[i].before(&h.nodes[parent]) {
			return
		}
		h.swap(i, parent)
		i = parent
	}
}

// down moves node i towards the leaves while a child is before it.
func (h *Heap[T]) down(i int) {
	n := len(h.nodes)
	for {
		child := 2*i + 1
		if child >= n {
			return
		}
		if right := child + 1; right < n && h.nodes[right].before(&h.nodes[child]) {
			child = right
		}
		if !h.nodes[child].before(&h.nodes[i]) {
			return
		}
		h.swap(i, child)
		i = child
	}
}
