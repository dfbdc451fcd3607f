package wire

import "github.com/kubeclient/client-go/internal/intern"

// entry reads one map entry as the reference reads it: the key (field 1)
// and value (field 2) are read whatever their wire type and are bounded by
// the enclosing message, not the entry; other fields are skipped within
// the entry. hasValue is false when the entry has no value. An entry with
// a repeated value fails (the reference would decode each).
func (r *Reader) entry(typ int) (key, value []byte, hasValue bool, err error) {
	if typ != wireBytes {
		return nil, nil, false, ErrFallback
	}
	end, err := r.length()
	if err != nil {
		return nil, nil, false, err
	}
	for r.i < end {
		start := r.i
		k, err := r.varint()
		if err != nil {
			return nil, nil, false, err
		}
		switch int32(k >> 3) {
		case 1, 2:
			e, err := r.length()
			if err != nil {
				return nil, nil, false, err
			}
			if int32(k>>3) == 1 {
				key = r.b[r.i:e]
			} else {
				if hasValue {
					return nil, nil, false, ErrFallback
				}
				value, hasValue = r.b[r.i:e], true
			}
			r.i = e
		default:
			e, err := skip(r.b, start)
			if err != nil || e > end {
				return nil, nil, false, ErrFallback
			}
			r.i = e
		}
	}
	r.i = end
	return key, value, hasValue, nil
}

// StringMap adds one entry of a map of strings; num sizes a nil map for
// all the entries.
func StringMap[M ~map[K]V, K ~string, V ~string](r *Reader, typ int, num int32, m *M) error {
	if *m == nil && typ == wireBytes {
		*m = make(M, r.sizeHint(num))
	}
	key, value, _, err := r.entry(typ)
	if err != nil {
		return err
	}
	// The last applied configuration may carry a Secret's data: it is
	// never interned.
	(*m)[K(r.str(key, false))] = V(r.str(value, string(key) == intern.LastAppliedAnnotation))
	return nil
}

// MessageMap adds one entry of a map of messages, decoding the value into
// a new one; num sizes a nil map for all the entries. In a large decode,
// the first entry of a map of quantities decodes them all (see
// templated).
func MessageMap[M ~map[K]V, K ~string, V any](r *Reader, typ int, num int32, m *M, dec func(Reader, *V) error) error {
	if *m == nil && typ == wireBytes {
		if done, err := templated(r, num, m, messageEntry[M], dec, quantitiesSafe[M]); done {
			return err
		}
		*m = make(M, r.sizeHint(num))
	}
	return messageEntry(r, typ, m, dec)
}

// messageEntry adds one entry of a map of messages.
func messageEntry[M ~map[K]V, K ~string, V any](r *Reader, typ int, m *M, dec func(Reader, *V) error) error {
	key, value, has, err := r.entry(typ)
	if err != nil {
		return err
	}
	var v V
	if has {
		if err := dec(r.nested(value), &v); err != nil {
			return err
		}
	}
	(*m)[K(r.str(key, false))] = v
	return nil
}

// BytesMap adds one entry of a map of byte strings, copying the value; an
// entry without one gets an empty, non-nil value, as in the reference.
func BytesMap[M ~map[K]V, K ~string, V ~[]byte](r *Reader, typ int, num int32, m *M) error {
	if *m == nil && typ == wireBytes {
		*m = make(M, r.sizeHint(num))
	}
	key, value, _, err := r.entry(typ)
	if err != nil {
		return err
	}
	v := make(V, len(value))
	copy(v, value)
	(*m)[K(r.str(key, false))] = v
	return nil
}
