package wire

import (
	"bytes"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kubeclient/client-go/internal/intern"
)

// lastAppliedKey is intern.LastAppliedAnnotation, as the key of a map
// entry holds it on the wire.
var lastAppliedKey = []byte(intern.LastAppliedAnnotation)

// SetSharedBytes reads a bytes field as SetBytes does; with a
// DecodeSharing, equal values decode to one shared slice. In a message
// ReusedPointer looked up by its bytes, and logs (a managed-fields set in
// an informer's decode), it copies as SetBytes does: equal messages find
// this one whole.
func SetSharedBytes[T ~[]byte](r *Reader, typ int, v *T) error {
	if r.share == nil || r.logged {
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
// DecodeSharing, the first entry of a map decodes all of them, which must
// be in one run of fields, to the map decoded before from the same bytes
// when there is one: objects of one owner have the same labels and
// resource lists.
//
// A shared map is final, and the reference merges entries that come later
// into the map decoded first. Entries in several runs of one message (no
// encoder writes that) go into a private map this Reader makes and
// remembers; a map named again in another message (its message repeated,
// merged by the reference) may be a shared one, and such input is left to
// the reference (ErrFallback), which decodes a fresh object. A map holding
// the last applied configuration (which may carry a Secret's data) is not
// kept.
func sharedMap[M ~map[K]V, K comparable, V any](r *Reader, typ int, num int32, m *M, entry func(*Reader, int, int32, *M) error) error {
	if r.share == nil || typ != wireBytes {
		return entry(r, typ, num, m)
	}
	bit := uint64(0)
	if num < 64 {
		bit = uint64(1) << num
	}
	if *m != nil {
		if r.privateMaps&bit == 0 {
			return ErrFallback
		}
		return entry(r, typ, num, m)
	}
	start := r.key
	end, n := r.run(num)
	if n == 0 {
		return entry(r, typ, num, m)
	}
	if r.count(num) != n {
		if bit == 0 {
			return ErrFallback
		}
		r.privateMaps |= bit
		return entry(r, typ, num, m)
	}
	key := r.b[start:end]
	small := end-start <= maxSharedMapWire && !bytes.Contains(key, lastAppliedKey)
	if small {
		if held, ok := r.share.Value(key); ok {
			if l, ok := held.(M); ok {
				*m = l
				r.i = end
				return nil
			}
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
	if small && entriesBounded(key) {
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
