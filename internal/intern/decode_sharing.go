package intern

import (
	"bytes"
	"hash/maphash"
	"reflect"
	"sync/atomic"
)

// DecodeSharing lets decoders return values that other decoded objects
// hold too, instead of a new copy each, found by their bytes on the wire:
// byte slices (the raw managed-fields sets of typed objects) in the
// table a Sharer dedups them with, so both find the same copies, and
// decoded values (maps of quantities, the managed-fields trees of
// unstructured objects) in a table of its own. Only objects nobody writes
// into may be decoded with a DecodeSharing: those that go straight into an
// informer's cache.
//
// Decoders may also reuse whole messages (the spec of an object, the same
// from one version of it to the next): see Reusable.
//
// A DecodeSharing also remembers the addresses of the last objects
// decoded whole with it (see Decoded), so that the cache need not share
// them again.
//
// A DecodeSharing is safe for concurrent use; its tables are bounded.
type DecodeSharing struct {
	bytes  *Table[[]byte]
	values *Table[wireValue]
	// decoded holds object addresses, each in the slot its hash picks.
	decoded [decodedSlots]atomic.Uintptr
	// reuse holds decoded messages by their key (see Reusable).
	reuse reusable
}

// wireValue is a decoded value and the bytes it was decoded from.
type wireValue struct {
	wire  []byte
	value any
}

const (
	// decodedSlots bounds the addresses a DecodeSharing remembers:
	// enough for the events a watch has decoded ahead of the cache.
	decodedSlots = 1 << 10
	// wireValueSlots and maxWireValue bound the table of decoded values:
	// a list of a few quantities is under a hundred bytes on the wire, a
	// managed-fields tree a few kilobytes.
	wireValueSlots = 1 << 12
	maxWireValue   = 16 << 10
)

// NewDecodeSharing returns a DecodeSharing that keeps byte slices in
// bytes (nil: none are shared) and decoded values in a table of its own.
func NewDecodeSharing(bytes *Table[[]byte]) *DecodeSharing {
	seed := maphash.MakeSeed()
	return &DecodeSharing{
		bytes: bytes,
		reuse: newReusable(),
		values: NewTable(wireValueSlots, func(v wireValue) (uint64, bool) {
			if len(v.wire) == 0 || len(v.wire) > maxWireValue {
				return 0, false
			}
			return maphash.Bytes(seed, v.wire), true
		}, func(a, b wireValue) bool { return sameWire(a.wire, b.wire) }),
	}
}

func sameWire(a, b []byte) bool { return bytes.Equal(a, b) }

// Bytes returns a shared copy of wire: the one kept when there is one,
// else a new copy, which it keeps when it may. It does not keep wire.
func (s *DecodeSharing) Bytes(wire []byte) []byte {
	if s.bytes == nil {
		return append(make([]byte, 0, len(wire)), wire...)
	}
	if held, ok := s.bytes.Find(wire); ok {
		return held
	}
	return s.bytes.Intern(append(make([]byte, 0, len(wire)), wire...))
}

// Value returns the value kept as decoded from wire, if any.
func (s *DecodeSharing) Value(wire []byte) (any, bool) {
	held, ok := s.values.Find(wireValue{wire: wire})
	return held.value, ok
}

// KeepValue keeps v as what wire decodes to. v must be final: other
// decoders may return it from now on. KeepValue copies wire.
func (s *DecodeSharing) KeepValue(wire []byte, v any) {
	if len(wire) > 0 && len(wire) <= maxWireValue {
		s.values.Intern(wireValue{wire: bytes.Clone(wire), value: v})
	}
}

// NoteDecoded records that obj, a pointer, was decoded whole with s.
func (s *DecodeSharing) NoteDecoded(obj any) {
	if a := address(obj); a != 0 {
		s.decoded[slot(a)].Store(a)
	}
}

// Decoded reports whether obj, a pointer, was decoded whole with s, so
// that it shares what a Sharer would make it share. It may say yes for a
// new object at the address of one that was and was freed, and no for
// one whose slot another took since: both only cost sharing, never
// correctness.
func (s *DecodeSharing) Decoded(obj any) bool {
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

// slot picks the decoded slot of address a: objects are 8-byte aligned,
// and Fibonacci hashing spreads consecutive allocations.
func slot(a uintptr) uintptr {
	return uintptr(uint64(a>>3)*0x9e3779b97f4a7c15>>54) & (decodedSlots - 1)
}
