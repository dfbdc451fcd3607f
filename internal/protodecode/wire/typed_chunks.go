package wire

import "unsafe"

// typedChunks hands out, for the decode of a list into a caller's object,
// the arrays of repeated message fields (a pod's containers, conditions,
// volume mounts) and the targets of optional messages (a container's
// probes and security context), cut from chunks of a few kilobytes
// instead of allocated one by one: the items of a list repeat them, a
// handful per item, and a decode that allocates each pays for it twice,
// in the allocator and in the collections that run while the list
// decodes.
//
// A chunk holds values of one type. Each value handed out is cut to its
// length (appending to one reallocates) and is written only while the
// object it belongs to is decoded; what follows it in the chunk goes to
// later items. A value keeps its chunk alive: an item kept alone keeps
// at most a few kilobytes per type of other items' values, as a string
// from the slab's text does.
//
// typedChunks serves only decodes for a caller (no DecodeSharing), which
// own their objects whole: the items of an informer's list are kept and
// dropped one by one (see AppendItem), and must not keep each other's
// chunks. It lives for one decode and is owned by the goroutine decoding
// (see slab).
type typedChunks struct {
	// slots holds a chunk per type, in the slot its type's address
	// selects; a type whose slot another type holds is allocated alone.
	slots [typedSlots]typedSlot
}

// typedSlot is the chunk of one type T: chunk is a *chunk[T], made on
// first use, when typ is typeOf[T]().
type typedSlot struct {
	typ   unsafe.Pointer
	chunk unsafe.Pointer
}

const (
	// typedSlots is the number of types with chunks: a list of pods has
	// about thirty types of repeated and optional messages.
	typedSlotBits = 6
	typedSlots    = 1 << typedSlotBits
	// typedChunkBytes is the size of a chunk of values; a run of more
	// than half of one is allocated alone.
	typedChunkBytes = 4 << 10
)

// typeOf returns the address of the type descriptor of *T: one per type
// in the program, found without reflection.
func typeOf[T any]() unsafe.Pointer {
	var p any = (*T)(nil)
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&p))[0]
}

// run returns n zero values of T, with no room to append: from r's typed
// chunks when it has them, else a new array.
func run[T any](r *Reader, n int) []T {
	if r.slab == nil || r.slab.typed == nil {
		return make([]T, n)
	}
	slot := r.slab.typed.slotOf(typeOf[T]())
	if slot == nil {
		return make([]T, n)
	}
	if slot.chunk == nil {
		slot.chunk = unsafe.Pointer(new(chunk[T]))
	}
	values := (*chunk[T])(slot.chunk)
	if cap(values.values)-len(values.values) < n {
		per := typedChunkBytes / max(int(unsafe.Sizeof(*new(T))), 1)
		if n > per/2 {
			return make([]T, n)
		}
		values.values = make([]T, 0, per)
	}
	start := len(values.values)
	values.values = values.values[:start+n]
	return values.values[start : start+n : start+n]
}

// slotOf returns the slot of the type at typ, taken for it when free;
// nil when another type holds it.
func (c *typedChunks) slotOf(typ unsafe.Pointer) *typedSlot {
	slot := &c.slots[uint64(uintptr(typ))*0x9e3779b97f4a7c15>>(64-typedSlotBits)]
	switch slot.typ {
	case typ:
		return slot
	case nil:
		slot.typ = typ
		return slot
	}
	return nil
}
