package intern

import (
	"bytes"
	"hash/maphash"
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
// What a DecodeSharing hands out is final: a decoder never writes into a
// value it got from Value, Bytes or Reusable, nor into a value it kept
// (KeepValue) once kept. When a document asks to merge into such a value
// (a duplicate JSON key, a repeated protobuf field), the decoder merges
// into a private copy.
//
// A DecodeSharing is safe for concurrent use; its tables are bounded.
type DecodeSharing struct {
	bytes  *Table[[]byte]
	values *Table[wireValue]
	// reuse holds decoded messages by their key (see Reusable).
	reuse reusable
}

// wireValue is a decoded value and the bytes it was decoded from.
type wireValue struct {
	wire  []byte
	value any
}

const (
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

// Clear empties s's table of decoded values (its byte slices are those of
// the table it was made with; clear that one too). Reusable messages are
// kept by weak pointer only and need no clearing.
func (s *DecodeSharing) Clear() { s.values.Clear() }
