package wire

import (
	"errors"

	"github.com/kubeclient/client-go/internal/intern"
)

// ErrFallback reports input the generated decoders do not decode; the
// caller decodes it again with the reference.
var ErrFallback = errors.New("protodecode: input left to the reference decoder")

// Wire types.
const (
	wireVarint     = 0
	wireFixed64    = 1
	wireBytes      = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireFixed32    = 5
)

// Reader reads the fields of one message. The zero value reads nothing;
// NewReader starts one at the beginning of a message.
type Reader struct {
	b []byte
	i int
	// key is the offset of the last key read.
	key int
	// share, when not nil, lets the decoders return values shared with
	// other objects; the readers of nested messages carry it.
	share *intern.DecodeSharing
	// reuse, when not nil (with share), logs the messages decoded for
	// reuse (see Reused); reusedFields has the bit of each field of this
	// message decoded by Reused.
	reuse        *ReuseLog
	reusedFields uint64
	// privateMaps has the bit of each map field of this message whose
	// entries, in more than one run, go into a map made by this Reader
	// (see sharedMap).
	privateMaps uint64
	// privateRuns has the bit of each repeated message field of this
	// message whose elements go into a slice made by this Reader (see
	// ReusedRun).
	privateRuns uint64
	// plain, set for Secrets, keeps strings out of the process-wide
	// table (see intern.IsSecret); the readers of nested messages carry it.
	plain bool
	// owned is set when b is a copy of the message made for this decode
	// alone, which its strings and bytes may alias (see ownedItem); the
	// readers of nested messages carry it.
	owned bool
	// logged is set for the reader of a message that ReusedPointer looked
	// up by its bytes and logs for reuse: an equal message is found
	// whole, so its fields need not be shared one by one (see
	// SetSharedBytes). Readers of nested messages do not carry it.
	logged bool
	// slab, when not nil, hands out the decode's small values (see
	// slab); the readers of nested messages carry it.
	slab *slab
}

// NewReader returns a Reader over message b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// NewPlainReader returns a Reader over message b that interns nothing:
// for a Secret, whose values must not enter process-wide tables.
func NewPlainReader(b []byte) Reader { return Reader{b: b, plain: true} }

// NewSharingReader returns a Reader over message b whose decoders share
// what s allows with the objects decoded before.
func NewSharingReader(b []byte, s *intern.DecodeSharing) Reader { return Reader{b: b, share: s} }

// NewReusingReader is NewSharingReader whose decoders may also reuse
// whole messages decoded before, logging those they decode in log (see
// Reused). s must not be nil.
func NewReusingReader(b []byte, s *intern.DecodeSharing, log *ReuseLog) Reader {
	return Reader{b: b, share: s, reuse: log}
}

// Message returns the whole message the Reader reads.
func (r *Reader) Message() []byte { return r.b }

// nested returns a Reader over b, a message nested in r's, that shares as
// r does.
func (r *Reader) nested(b []byte) Reader {
	return Reader{b: b, share: r.share, reuse: r.reuse, plain: r.plain, owned: r.owned, slab: r.slab}
}

// More reports whether fields are left.
func (r *Reader) More() bool { return r.i < len(r.b) }

// varint reads a base-128 varint of at most ten bytes; the bits past the
// 64th are dropped as the reference drops them.
func (r *Reader) varint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.i >= len(r.b) {
			return 0, ErrFallback
		}
		c := r.b[r.i]
		r.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, ErrFallback
}

// Key reads a field key and returns its field number, truncated to int32
// as the reference truncates it, and its wire type. End-group keys and
// field numbers below one fail.
func (r *Reader) Key() (num int32, typ int, err error) {
	k, next := uvarint(r.b, r.i)
	if next < 0 {
		return 0, 0, ErrFallback
	}
	r.key, r.i = r.i, next
	num, typ = int32(k>>3), int(k&7)
	if typ == wireEndGroup || num <= 0 {
		return 0, 0, ErrFallback
	}
	return num, typ, nil
}

// length reads a length prefix and returns the end offset of the value.
func (r *Reader) length() (int, error) {
	n, next := uvarint(r.b, r.i)
	if next < 0 || n > uint64(len(r.b)-next) {
		return 0, ErrFallback
	}
	r.i = next
	return next + int(n), nil
}

// Varint reads the value of a varint field.
func (r *Reader) Varint(typ int) (uint64, error) {
	if typ != wireVarint {
		return 0, ErrFallback
	}
	return r.varint()
}

// Bytes reads the value of a length-delimited field. The result aliases
// the message.
func (r *Reader) Bytes(typ int) ([]byte, error) {
	n, next := uvarint(r.b, r.i)
	if typ != wireBytes || next < 0 || n > uint64(len(r.b)-next) {
		return nil, ErrFallback
	}
	end := next + int(n)
	v := r.b[next:end:end]
	r.i = end
	return v, nil
}

// Skip skips the field whose key was read last, groups included, as the
// reference skips unknown fields.
func (r *Reader) Skip() error {
	end, err := skip(r.b, r.key)
	if err != nil {
		return err
	}
	r.i = end
	return nil
}

// skip returns the end of the field starting at key offset i of b.
func skip(b []byte, i int) (int, error) {
	s := Reader{b: b, i: i}
	depth := 0
	for s.i < len(b) {
		k, err := s.varint()
		if err != nil {
			return 0, err
		}
		switch k & 7 {
		case wireVarint:
			if _, err := s.varint(); err != nil {
				return 0, err
			}
		case wireFixed64:
			s.i += 8
		case wireBytes:
			end, err := s.length()
			if err != nil {
				return 0, err
			}
			s.i = end
		case wireStartGroup:
			depth++
		case wireEndGroup:
			if depth == 0 {
				return 0, ErrFallback
			}
			depth--
		case wireFixed32:
			s.i += 4
		default:
			return 0, ErrFallback
		}
		if depth == 0 {
			if s.i > len(b) {
				return 0, ErrFallback
			}
			return s.i, nil
		}
	}
	return 0, ErrFallback
}

// sizeHint returns how many elements to make room for when the first
// element of repeated or map field num has just been read: the
// length-delimited fields numbered num in the run that starts at the last
// key, up to the first that does not parse (at least 1). Every encoder
// the API server uses writes a repeated field's elements in one run, so
// the run is all of them; where they are spread out, the slice or map
// grows as elements come. Counting to the end of the message instead
// would scan the rest of it once per repeated field. The count reads each
// field's key and length as Key and Bytes do, and nothing else: it runs
// once for every slice and map a decode makes.
func (r *Reader) sizeHint(num int32) int {
	_, n := r.runEnd(num)
	return max(1, n)
}

// runEnd returns the number of the length-delimited fields numbered num
// in the run that starts at the last key, up to the first that does not
// parse, and the offset where the last of them ends.
func (r *Reader) runEnd(num int32) (end, n int) {
	want := uint64(num)<<3 | wireBytes
	for i := r.key; i < len(r.b); n++ {
		k, j := uvarint(r.b, i)
		if j < 0 || k != want {
			break
		}
		l, j := uvarint(r.b, j)
		if j < 0 || l > uint64(len(r.b)-j) {
			break
		}
		i = j + int(l)
		end = i
	}
	return end, n
}

// uvarint reads the varint at b[i:] as varint does and returns it and the
// offset after it; -1 when it does not parse.
func uvarint(b []byte, i int) (uint64, int) {
	if i < len(b) && b[i] < 0x80 {
		return uint64(b[i]), i + 1
	}
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if i >= len(b) {
			return 0, -1
		}
		c := b[i]
		i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i
		}
	}
	return 0, -1
}

// count returns how many fields numbered num, length-delimited, follow
// the last key read, that one included; 1 when the rest is malformed.
func (r *Reader) count(num int32) int {
	n := 0
	for i := r.key; i < len(r.b); {
		s := Reader{b: r.b, i: i}
		k, err := s.varint()
		if err != nil {
			return 1
		}
		if int32(k>>3) == num && k&7 == wireBytes {
			n++
		}
		end, err := skip(r.b, i)
		if err != nil {
			return 1
		}
		i = end
	}
	if n == 0 {
		return 1
	}
	return n
}
