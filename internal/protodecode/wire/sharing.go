package wire

import (
	"bytes"
	"hash/maphash"
	"reflect"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubeclient/client-go/internal/intern"
)

// Sharing lets the decoders of a Reader return values that other decoded
// objects hold too, instead of a new copy each: the raw managed-fields
// sets (metav1.FieldsV1) and maps of quantities (container limits and
// requests), found by their bytes on the wire. Only objects nobody writes
// into may be decoded with a Sharing: those that go straight into an
// informer's cache.
//
// A Sharing also remembers the addresses of the last objects decoded
// whole with it (see Decoded), so that the cache need not share them
// again.
//
// A Sharing is safe for concurrent use; its tables are bounded (see
// package intern).
type Sharing struct {
	fields *intern.Table[[]byte]
	lists  *intern.Table[sharedList]
	// decoded holds object addresses, each in the slot its hash picks.
	decoded [decodedSlots]atomic.Uintptr
}

// decodedSlots bounds the addresses a Sharing remembers: enough for the
// events a watch has decoded ahead of the cache.
const decodedSlots = 1 << 10

// sharedList is a map of quantities and the bytes it was decoded from:
// the consecutive entries of one map field.
type sharedList struct {
	wire []byte
	list any // a map[K]resource.Quantity, K a string type
}

// Bounds of the table of quantity maps: a list of a few resources is
// well under a hundred bytes on the wire.
const (
	sharedListSlots   = 1 << 10
	maxSharedListWire = 1 << 10
)

// NewSharing returns a Sharing that keeps managed-fields sets in fields
// (the table the cache's intern.Sharer dedups them with, so both find the
// same copies) and quantity maps in a table of its own.
func NewSharing(fields *intern.Table[[]byte]) *Sharing {
	seed := maphash.MakeSeed()
	return &Sharing{
		fields: fields,
		lists: intern.NewTable(sharedListSlots, func(l sharedList) (uint64, bool) {
			if len(l.wire) == 0 || len(l.wire) > maxSharedListWire {
				return 0, false
			}
			return maphash.Bytes(seed, l.wire), true
		}, func(a, b sharedList) bool { return bytes.Equal(a.wire, b.wire) }),
	}
}

// NoteDecoded records that obj, a pointer, was decoded whole with s.
func (s *Sharing) NoteDecoded(obj any) {
	if a := address(obj); a != 0 {
		s.decoded[slot(a)].Store(a)
	}
}

// Decoded reports whether obj, a pointer, was decoded whole with s: its
// managed-fields sets and quantity maps are shared, and its strings
// interned as far as the decoders intern them. It may say yes for a new
// object at the address of one that was, and the garbage collector freed,
// and no for one whose address was overwritten since: both only cost
// sharing, never correctness.
func (s *Sharing) Decoded(obj any) bool {
	a := address(obj)
	return a != 0 && s.decoded[slot(a)].Load() == a
}

// address returns the pointer obj holds, or 0.
func address(obj any) uintptr {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer {
		return 0
	}
	return v.Pointer()
}

// slot picks the decoded slot of address a; objects are at least 8-byte
// aligned, and Fibonacci hashing spreads consecutive allocations.
func slot(a uintptr) uintptr {
	return uintptr(uint64(a>>3)*0x9e3779b97f4a7c15>>54) & (decodedSlots - 1)
}

// SetSharedBytes reads a bytes field as SetBytes does; with a Sharing,
// equal values decode to one shared slice.
func SetSharedBytes[T ~[]byte](r *Reader, typ int, v *T) error {
	if r.share == nil || r.share.fields == nil {
		return SetBytes(r, typ, v)
	}
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if held, ok := r.share.fields.Find(b); ok {
		*v = T(held)
		return nil
	}
	c := make([]byte, len(b))
	copy(c, b)
	*v = T(r.share.fields.Intern(c))
	return nil
}

// QuantityMap adds one entry of a map of quantities as MessageMap does.
// With a Sharing, the first entry of a map whose entries are all in one
// run of fields decodes the whole run, to the map decoded before from the
// same bytes when there is one.
func QuantityMap[M ~map[K]resource.Quantity, K ~string](r *Reader, typ int, num int32, m *M) error {
	if r.share == nil || *m != nil || typ != wireBytes {
		return MessageMap(r, typ, num, m, Quantity)
	}
	start := r.key
	end, n := r.run(num)
	if n == 0 || end-start > maxSharedListWire || r.count(num) != n {
		return MessageMap(r, typ, num, m, Quantity)
	}
	key := r.b[start:end]
	if held, ok := r.share.lists.Find(sharedList{wire: key}); ok {
		if l, ok := held.list.(M); ok {
			*m = l
			r.i = end
			return nil
		}
	}
	for i := 0; ; i++ {
		if err := MessageMap(r, typ, num, m, Quantity); err != nil {
			return err
		}
		if i == n-1 {
			break
		}
		var err error
		if _, typ, err = r.Key(); err != nil {
			return err
		}
	}
	// Only a map that is complete may be seen by other decoders, and only
	// one that depends on its bytes alone: the reference reads the key and
	// value of an entry up to the end of the enclosing message, so an
	// entry whose fields overrun it decodes bytes past the run.
	if entriesBounded(key) {
		r.share.lists.Intern(sharedList{wire: bytes.Clone(key), list: *m})
	}
	return nil
}

// entriesBounded reports whether b, a run of length-delimited fields,
// holds only messages whose fields each end within their message.
func entriesBounded(b []byte) bool {
	for i := 0; i < len(b); {
		s := Reader{b: b, i: i}
		if _, err := s.varint(); err != nil {
			return false
		}
		end, err := s.length()
		if err != nil {
			return false
		}
		for j := s.i; j < end; {
			if j, err = skip(b[:end], j); err != nil {
				return false
			}
		}
		i = end
	}
	return true
}

// run returns the end offset and the number of the consecutive
// length-delimited fields numbered num starting at the last key read;
// n is 0 when they do not parse.
func (r *Reader) run(num int32) (end, n int) {
	for i := r.key; i < len(r.b); n++ {
		s := Reader{b: r.b, i: i}
		k, err := s.varint()
		if err != nil {
			return 0, 0
		}
		if int32(k>>3) != num || k&7 != wireBytes {
			break
		}
		e, err := skip(r.b, i)
		if err != nil {
			return 0, 0
		}
		i, end = e, e
	}
	return end, n
}
