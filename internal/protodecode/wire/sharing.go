package wire

import (
	"k8s.io/apimachinery/pkg/api/resource"
)

// SetSharedBytes reads a bytes field as SetBytes does; with a
// DecodeSharing, equal values decode to one shared slice.
func SetSharedBytes[T ~[]byte](r *Reader, typ int, v *T) error {
	if r.share == nil {
		return SetBytes(r, typ, v)
	}
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	*v = T(r.share.Bytes(b))
	return nil
}

// maxSharedMapWire bounds the maps shared: a list of a few resources, or
// the labels of a pod, is well under a kilobyte on the wire.
const maxSharedMapWire = 1 << 10

// QuantityMap adds one entry of a map of quantities (a resource list) as
// MessageMap does; with a DecodeSharing, see sharedMap.
func QuantityMap[M ~map[K]resource.Quantity, K ~string](r *Reader, typ int, num int32, m *M) error {
	return sharedMap(r, typ, num, m, func(r *Reader, typ int, num int32, m *M) error {
		return MessageMap(r, typ, num, m, Quantity)
	})
}

// SharedStringMap adds one entry of a map of strings (labels, annotations)
// as StringMap does; with a DecodeSharing, see sharedMap.
func SharedStringMap[M ~map[K]V, K ~string, V ~string](r *Reader, typ int, num int32, m *M) error {
	return sharedMap(r, typ, num, m, StringMap[M, K, V])
}

// sharedMap adds one entry of map field num with entry. With a
// DecodeSharing, the first entry of a map whose entries are all in one run
// of fields decodes the whole run, to the map decoded before from the same
// bytes when there is one: objects of one owner have the same labels and
// resource lists.
func sharedMap[M ~map[K]V, K comparable, V any](r *Reader, typ int, num int32, m *M, entry func(*Reader, int, int32, *M) error) error {
	if r.share == nil || *m != nil || typ != wireBytes {
		return entry(r, typ, num, m)
	}
	start := r.key
	end, n := r.run(num)
	if n == 0 || end-start > maxSharedMapWire || r.count(num) != n {
		return entry(r, typ, num, m)
	}
	key := r.b[start:end]
	if held, ok := r.share.Value(key); ok {
		if l, ok := held.(M); ok {
			*m = l
			r.i = end
			return nil
		}
	}
	for i := 0; ; i++ {
		if err := entry(r, typ, num, m); err != nil {
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
		r.share.KeepValue(key, *m)
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
