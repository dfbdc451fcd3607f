package wire

import (
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// slab hands out the small values of one decode that would otherwise be
// an allocation each: the bytes of strings that are not interned (names,
// UIDs, resource versions, addresses, container IDs) and the targets of
// optional scalars and times (*int64, *bool, *string, *metav1.Time). It
// takes them from chunks it allocates and cuts, a few per object instead
// of dozens: fewer allocations for the decoder to make and the collector
// to mark.
//
// A chunk is only ever appended to: the values it handed out are not
// written again, so a slab may serve every object of a list. A slab lives
// for one decode (one object, or one list and its items) and is owned by
// the goroutine decoding; the Readers of nested messages share it. A
// value from a chunk keeps the chunk alive; the first chunks are sized
// from the message, so that a single object does not hold much more than
// it uses.
type slab struct {
	// text is the chunk of string bytes, of which textUsed are handed
	// out: a count, so that taking a string writes no pointer.
	text     []byte
	textUsed int
	words    chunk[uint64]
	halves   chunk[uint32]
	bools    chunk[bool]
	strs     chunk[string]
	times    chunk[metav1.Time]
	// recent, for the decode of a large message that shares, holds the
	// interned strings met last (see recentStrings); nil otherwise.
	recent *recentStrings
	// maps, for the decode of a large message that does not share, holds
	// maps decoded before (see mapTemplates); nil otherwise.
	maps *mapTemplates
	// typed, for the decode of a large message into a caller's object,
	// holds the chunks of arrays and optional messages (see
	// typedChunks); nil otherwise.
	typed *typedChunks
	// textNext sizes the next chunk of string bytes: from the message's
	// size at first, doubling up to maxTextChunk bytes. firstChunk is the
	// length of the first chunk of values of each kind, from the
	// message's size too.
	textNext, firstChunk int
}

// chunk is the chunk a slab cuts values of one kind from: its length is
// the values handed out. Each kind's chunks grow on their own, from the
// slab's firstChunk, doubling up to maxChunk values, so that a kind an
// object has few of takes a small chunk whatever the others took.
type chunk[T any] struct {
	values []T
	next   int // the length of the next chunk; 0 before the first
}

const (
	// maxTextChunk is the largest chunk of string bytes; maxChunk the
	// most values of another kind in a chunk.
	maxTextChunk = 4 << 10
	maxChunk     = 64
	// maxSlabString is the longest string taken from a chunk; longer ones
	// are allocated alone.
	maxSlabString = 256
)

// newSlab returns a slab for the decode of a message of n bytes, by a
// Reader that shares or not. About a twelfth of an object's bytes are
// strings that are not interned, and a sixth are strings at all.
func newSlab(n int, shares bool) *slab {
	text := n / 6
	if shares {
		text = n / 12
	}
	s := &slab{textNext: min(max(text, 64), maxTextChunk), firstChunk: min(max(n/1024, 4), maxChunk)}
	if n >= minRecentMessage {
		if shares {
			s.recent = new(recentStrings)
		} else {
			s.maps = new(mapTemplates)
			s.typed = new(typedChunks)
		}
	}
	return s
}

// WithSlab returns r with a slab for the small values of its decode (see
// slab): for the reader of a whole object or list, at the start of a
// decode. A large message decoded without sharing (a list, for a caller)
// also gets map templates and typed chunks (see mapTemplates,
// typedChunks); one that shares, recent strings (see recentStrings).
// With fastpath.DecodeSlabs off, every value is allocated alone.
func (r Reader) WithSlab() Reader {
	if fastpath.DecodeSlabs.On() {
		r.slab = newSlab(len(r.b), r.share != nil)
	}
	return r
}

// string returns b as a string whose bytes are in a chunk.
func (s *slab) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxSlabString {
		return string(b)
	}
	if len(s.text)-s.textUsed < len(b) {
		s.text = make([]byte, max(s.textNext, len(b)))
		s.textUsed = 0
		s.textNext = min(2*s.textNext, maxTextChunk)
	}
	start := s.textUsed
	s.textUsed += copy(s.text[start:], b)
	return unsafe.String(&s.text[start], len(b))
}

// take returns a new zero value from the chunk c, cutting a new chunk
// when it is used up.
func take[T any](s *slab, c *chunk[T]) *T {
	if len(c.values) == cap(c.values) {
		if c.next == 0 {
			c.next = s.firstChunk
		}
		c.values = make([]T, 0, c.next)
		c.next = min(2*c.next, maxChunk)
	}
	c.values = c.values[:len(c.values)+1]
	return &c.values[len(c.values)-1]
}

// newInteger returns a new zero T, from r's slab when it has one.
func newInteger[T Integer](r *Reader) *T {
	if r.slab != nil {
		switch unsafe.Sizeof(T(0)) {
		case 8:
			return (*T)(unsafe.Pointer(take(r.slab, &r.slab.words)))
		case 4:
			return (*T)(unsafe.Pointer(take(r.slab, &r.slab.halves)))
		}
	}
	return new(T)
}

// newBool returns a new false T, from r's slab when it has one.
func newBool[T ~bool](r *Reader) *T {
	if r.slab != nil {
		return (*T)(unsafe.Pointer(take(r.slab, &r.slab.bools)))
	}
	return new(T)
}

// newString returns a new empty T, from r's slab when it has one.
func newString[T ~string](r *Reader) *T {
	if r.slab != nil {
		return (*T)(unsafe.Pointer(take(r.slab, &r.slab.strs)))
	}
	return new(T)
}

// newMessage returns a new zero T for an optional message field: times
// from r's slab when it has one, other messages from its typed chunks
// when it has them, else alone.
func newMessage[T any](r *Reader) *T {
	if r.slab != nil {
		var zero *T
		if _, ok := any(zero).(*metav1.Time); ok {
			return (*T)(unsafe.Pointer(take(r.slab, &r.slab.times)))
		}
		if r.slab.typed != nil {
			return &run[T](r, 1)[0]
		}
	}
	return new(T)
}
