package wire

import (
	"unsafe"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
)

// Integer is the integer kinds of API fields.
type Integer interface {
	~int | ~int32 | ~int64 | ~uint32 | ~uint64
}

// str returns b as a string. A decode that shares (an informer's) takes
// it from the process-wide intern table, unless unique is set; any other
// decode, whose object is the caller's, copies it into the slab, as the
// reference allocates it: finding a string in the table costs more than
// copying it, and the table would keep what one caller read. A Reader
// over its own copy of the message (owned) returns b's bytes themselves.
func (r *Reader) str(b []byte, unique bool) string {
	if r.owned {
		if len(b) == 0 {
			return ""
		}
		return unsafe.String(&b[0], len(b))
	}
	if unique || r.share == nil || r.plain || !fastpath.Interning.On() {
		if r.slab != nil {
			return r.slab.string(b)
		}
		return string(b)
	}
	if r.slab != nil && r.slab.recent != nil {
		return r.slab.recent.fromBytes(intern.SharedStrings(), b)
	}
	return intern.SharedStrings().FromBytes(b)
}

// SetString reads a string field into v, interning it.
func SetString[T ~string](r *Reader, typ int, v *T) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	*v = T(r.str(b, false))
	return nil
}

// SetUniqueString reads a string field whose values rarely repeat.
func SetUniqueString[T ~string](r *Reader, typ int, v *T) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	*v = T(r.str(b, true))
	return nil
}

// SetStringPtr reads an optional string field into a new value.
func SetStringPtr[T ~string](r *Reader, typ int, v **T) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	s := newString[T](r)
	*s = T(r.str(b, false))
	*v = s
	return nil
}

// SetInt reads a varint field, truncated to T as the reference truncates.
func SetInt[T Integer](r *Reader, typ int, v *T) error {
	u, err := r.Varint(typ)
	if err != nil {
		return err
	}
	*v = T(u)
	return nil
}

// SetIntPtr reads an optional varint field into a new value.
func SetIntPtr[T Integer](r *Reader, typ int, v **T) error {
	u, err := r.Varint(typ)
	if err != nil {
		return err
	}
	n := newInteger[T](r)
	*n = T(u)
	*v = n
	return nil
}

// SetBool reads a bool field: any non-zero varint is true.
func SetBool[T ~bool](r *Reader, typ int, v *T) error {
	u, err := r.Varint(typ)
	if err != nil {
		return err
	}
	*v = u != 0
	return nil
}

// SetBoolPtr reads an optional bool field into a new value.
func SetBoolPtr[T ~bool](r *Reader, typ int, v **T) error {
	u, err := r.Varint(typ)
	if err != nil {
		return err
	}
	b := newBool[T](r)
	*b = u != 0
	*v = b
	return nil
}

// SetBytes sets a bytes field to a slice of exactly its length, with no
// room to append: the field's bytes themselves when r is over its own copy
// of the message (see ownedItem), else a copy; an empty value is non-nil,
// as in the reference.
func SetBytes[T ~[]byte](r *Reader, typ int, v *T) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if r.owned && len(b) > 0 {
		*v = T(b) // Bytes cut its capacity to its length
		return nil
	}
	c := make(T, len(b))
	copy(c, b)
	*v = c
	return nil
}
