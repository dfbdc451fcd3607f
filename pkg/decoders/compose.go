package decoders

import (
	"bytes"
	"maps"
	"sync"

	kjson "sigs.k8s.io/json"

	"github.com/kubeclient/client-go/internal/intern"
)

// Unmarshaler is encoding/json's Unmarshaler.
type Unmarshaler interface {
	UnmarshalJSON([]byte) error
}

// Unmarshal hands the next value, null included, to u as the reference does
// for a non-pointer field whose type implements Unmarshaler.
func Unmarshal(l *Lexer, u Unmarshaler) error {
	return u.UnmarshalJSON(l.Raw())
}

// PtrUnmarshal decodes a pointer to an Unmarshaler: null sets it to nil,
// anything else goes to the pointee's UnmarshalJSON, allocated when nil.
func PtrUnmarshal[T any, PT interface {
	*T
	Unmarshaler
}](l *Lexer, p **T) error {
	if l.Next() == 'n' {
		l.SkipNull()
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(T)
	}
	return PT(*p).UnmarshalJSON(l.Raw())
}

// Fallback decodes the next value into ptr with the reference decoder, for
// fields whose Go type the generator does not handle (interface{} values).
// Decoding a value alone through a pointer to its field behaves as decoding
// it in place.
func Fallback(l *Lexer, ptr any) error {
	return kjson.UnmarshalCaseSensitivePreserveInts(l.Raw(), ptr)
}

// Ptr decodes into the pointee of *p, allocating it when nil; null sets
// *p to nil.
func Ptr[T any](l *Lexer, p **T, dec func(*Lexer, *T) error) error {
	if l.Next() == 'n' {
		l.SkipNull()
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(T)
	}
	return dec(l, *p)
}

// Slice decodes an array into *s as the reference does: elements already
// in the slice's capacity are decoded into, the length ends at the array's
// length, an empty array gives an empty non-nil slice, and null gives nil.
// A nil slice is allocated once at the array's length.
func Slice[T any, S ~[]T](l *Lexer, s *S, dec func(*Lexer, *T) error) error {
	switch l.Next() {
	case '[':
	case 'n':
		l.SkipNull()
		*s = nil
		return nil
	default:
		return ErrMismatch
	}
	v := *s
	if v == nil {
		if n := l.countElements(); n > 0 {
			v = make(S, 0, n)
		}
	}
	l.OpenArray()
	i := 0
	for l.More() {
		// As the reference: the length only grows while decoding (a
		// failure midway leaves the old length), and the capacity's
		// elements past the length are decoded into.
		if i >= len(v) {
			if i < cap(v) {
				v = v[:i+1]
			} else {
				var zero T
				v = append(v, zero)
			}
			*s = v
		}
		if err := dec(l, &v[i]); err != nil {
			return err
		}
		i++
	}
	if i == 0 {
		*s = S{}
		return nil
	}
	*s = v[:i]
	return nil
}

// openMap starts decoding a map value into *m: null sets *m to nil and an
// object is entered, making *m (sized from the container index) when it is
// nil. done is true when there is nothing more to decode: after null, or
// with ErrMismatch for any other value.
func openMap[K comparable, V any, M ~map[K]V](l *Lexer, m *M) (done bool, err error) {
	switch l.Next() {
	case '{':
	case 'n':
		l.SkipNull()
		*m = nil
		return true, nil
	default:
		return true, ErrMismatch
	}
	if *m == nil {
		n := 0
		if sp := l.containerAt(l.pos); sp != nil {
			n = int(sp.N)
		}
		*m = make(M, n)
	}
	l.OpenObject()
	return false, nil
}

// Map decodes an object into *m as the reference does: a nil map is made,
// existing entries stay, and every member is decoded into a fresh zero
// value that then replaces the entry. Keys are interned. null gives nil.
func Map[K ~string, V any, M ~map[K]V](l *Lexer, m *M, dec func(*Lexer, *V) error) error {
	if done, err := openMap(l, m); done {
		return err
	}
	mm := *m
	// One element buffer per map: dec is a function value, so what it
	// is handed escapes.
	e := new(V)
	var zero V
	for {
		key, ok := l.Key()
		if !ok {
			return nil
		}
		k := K(l.st.Interner.FromBytes(key))
		*e = zero
		if err := dec(l, e); err != nil {
			return err
		}
		mm[k] = *e
	}
}

// StringMap is Map for string values (labels, annotations, selectors),
// interning keys and values, without a per-map element buffer.
func StringMap[K ~string, V ~string, M ~map[K]V](l *Lexer, m *M) error {
	if done, err := openMap(l, m); done {
		return err
	}
	mm := *m
	for {
		key, ok := l.Key()
		if !ok {
			return nil
		}
		k := K(l.st.Interner.FromBytes(key))
		switch l.Next() {
		case '"':
			if string(key) == intern.LastAppliedAnnotation {
				// Never interned: it may carry a Secret's data.
				mm[k] = V(string(l.str()))
				break
			}
			mm[k] = V(l.st.Interner.FromBytes(l.str()))
		case 'n':
			// A fresh zero value, as the reference stores for null.
			l.SkipNull()
			mm[k] = ""
		default:
			return ErrMismatch
		}
	}
}

// Top validates data as a whole and then decodes it into v with dec. A
// nil v is refused, as the reference refuses it, without reading data.
func Top[T any](data []byte, v *T, dec func(*Lexer, *T) error) error {
	if v == nil {
		return ErrMismatch
	}
	l, err := Index(data)
	if err != nil {
		return err
	}
	defer l.Release()
	return dec(l, v)
}

// minSpanBytes is the fewest document bytes Top expects per container
// when sizing the index; Kubernetes objects have about 30.
const minSpanBytes = 16

// reserveSpans gives l.spans room for data's containers so that recording
// them does not grow it step by step. Their number is at most the count of
// opening brackets (brackets inside strings count too); the room is capped
// at one span per minSpanBytes so that bracket-heavy strings do not
// reserve more than the document's own size. Past the cap the index grows
// by append.
func (l *Lexer) reserveSpans(data []byte) {
	n := min(bytes.Count(data, openBrace)+bytes.Count(data, openBracket), len(data)/minSpanBytes)
	if cap(l.spans) < n {
		l.spans = make([]span, 0, n)
	}
}

var openBrace, openBracket = []byte{'{'}, []byte{'['}

// lexers recycles lexers and their container records between documents.
var lexers = sync.Pool{New: func() any { return &Lexer{spans: make([]span, 0, 64)} }}

// maxPooledSpans bounds the index a pooled lexer keeps (1.5 MiB).
const maxPooledSpans = 1 << 17

// release returns l to the pool, dropping its reference to the document.
func (l *Lexer) release() {
	if cap(l.spans) > maxPooledSpans {
		return // leave a huge document's records to the collector
	}
	l.data, l.pos, l.next, l.spans, l.st.Share = nil, 0, 0, l.spans[:0], nil
	l.scratch = l.scratch[:0]
	lexers.Put(l)
}

// maxSharedMap bounds the maps shared by value: the labels of a pod or a
// resource list are well under a kilobyte.
const maxSharedMap = 1 << 10

// SharedStringMap decodes an object into *m as StringMap does; with
// decode sharing set on the lexer, see sharedMap.
func SharedStringMap[K ~string, V ~string, M ~map[K]V](l *Lexer, m *M) error {
	return sharedMap(l, m, StringMap[K, V, M])
}

// sharedMap decodes an object into *m with decode. With decode sharing set, a nil
// *m and a small object, the result is the map decoded before from the
// same bytes when there is one (objects of one owner have the same labels
// and resource lists), and a new one is kept for the next: a map is what
// its bytes make of it, whatever object it is in.
//
// A kept map is final. A document that names the map twice (a duplicate
// key, here or in an object above) merges the second into the first, as
// the reference does; with decode sharing the first may be a kept map, so the
// merge goes into a private copy of it. A map holding the last applied
// configuration (which may carry a Secret's data) is never kept.
func sharedMap[K comparable, V any, M ~map[K]V](l *Lexer, m *M, decode func(*Lexer, *M) error) error {
	if l.st.Share == nil {
		return decode(l, m)
	}
	if *m != nil {
		*m = maps.Clone(*m)
		return decode(l, m)
	}
	if l.Next() != '{' {
		return decode(l, m)
	}
	sp := l.containerAt(l.pos)
	if sp == nil || int(sp.End)-l.pos > maxSharedMap {
		return decode(l, m)
	}
	raw := l.data[l.pos:sp.End]
	if bytes.Contains(raw, lastAppliedKey) {
		return decode(l, m)
	}
	if held, ok := l.st.Share.Value(raw); ok {
		if shared, ok := held.(M); ok {
			*m = shared
			l.pos = int(sp.End)
			return nil
		}
	}
	if err := decode(l, m); err != nil {
		return err
	}
	l.st.Share.KeepValue(raw, *m)
	return nil
}

// lastAppliedKey is intern.LastAppliedAnnotation as a JSON key.
var lastAppliedKey = []byte(`"` + intern.LastAppliedAnnotation + `"`)
