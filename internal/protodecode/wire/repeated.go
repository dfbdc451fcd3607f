package wire

// AppendString appends one element of a repeated string field; num is the
// field's number, used to size a nil slice for all the elements.
func AppendString[S ~[]T, T ~string](r *Reader, typ int, num int32, v *S) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if *v == nil {
		*v = run[T](r, r.sizeHint(num))[:0]
	}
	*v = append(*v, T(r.str(b, false)))
	return nil
}

// AppendInts appends the elements of a repeated varint field, packed or
// not. A packed run is read as the reference reads it: varints are bounded
// by the message, not the run, and the run ends where the last one ends.
func AppendInts[S ~[]T, T Integer](r *Reader, typ int, v *S) error {
	switch typ {
	case wireVarint:
		u, err := r.varint()
		if err != nil {
			return err
		}
		*v = append(*v, T(u))
		return nil
	case wireBytes:
		end, err := r.length()
		if err != nil {
			return err
		}
		for r.i < end {
			u, err := r.varint()
			if err != nil {
				return err
			}
			*v = append(*v, T(u))
		}
		return nil
	}
	return ErrFallback
}

// Embedded decodes a message field into v, merging as the reference does.
func Embedded[T any](r *Reader, typ int, v *T, dec func(Reader, *T) error) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	return dec(r.nested(b), v)
}

// Pointer decodes an optional message field, allocating it when nil.
func Pointer[T any](r *Reader, typ int, v **T, dec func(Reader, *T) error) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if *v == nil {
		*v = newMessage[T](r)
	}
	return dec(r.nested(b), *v)
}

// AppendMessage decodes one element of a repeated message field into a
// new element; num sizes a nil slice for all the elements. The first
// element decodes its whole run (see sizeHint) into one array that make
// zeroed, so that no element is copied in: copying a zero value of a
// large struct costs a write barrier for each of its pointers while the
// collector runs. Elements after the run (which no encoder of the API
// server writes) are appended one by one.
func AppendMessage[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error) error {
	return appendMessage(r, typ, num, v, dec, false)
}

// appendMessage is AppendMessage reading each element from a copy of its
// own when ownElements is set (see ownedItem).
func appendMessage[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error, ownElements bool) error {
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if *v != nil {
		var zero T
		*v = append(*v, zero)
		return dec(r.element(b, ownElements), &(*v)[len(*v)-1])
	}
	out := S(run[T](r, r.sizeHint(num)))
	for i := range out {
		if i > 0 {
			// sizeHint counted len(out) fields numbered num whose key
			// and length parse.
			if _, _, err := r.Key(); err != nil {
				return err
			}
			if b, err = r.Bytes(wireBytes); err != nil {
				return err
			}
		}
		if err := dec(r.element(b, ownElements), &out[i]); err != nil {
			return err
		}
	}
	*v = out
	return nil
}

// element returns a Reader over b, an element of r's message: over a copy
// of its own when own is set (see ownedItem), else nested.
func (r *Reader) element(b []byte, own bool) Reader {
	if own {
		return r.ownedItem(b)
	}
	return r.nested(b)
}
