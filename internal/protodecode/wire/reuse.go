package wire

import (
	"unsafe"
	"weak"

	"github.com/kubeclient/client-go/internal/intern"
)

// ReuseLog collects the messages decoded for reuse while one object is
// decoded. They become reusable by other decodes (Commit) only once the
// whole object has decoded: a decode that fails or is left to the
// reference resets the object, and nobody outside it may have copied its
// parts before that. Within the decode, every message logged is reusable
// at once: an equal one in a later item of a list is a copy of it (the
// pods of one ReplicaSet have equal specs, or, spread over nodes, equal
// containers and volumes). When the decode fails, all are discarded
// together.
type ReuseLog struct {
	// keeps holds what this decode logged, in order: the keys and, for
	// Commit, the weak references to the values; in keepsBuf while few.
	keeps    []reusableKeep
	keepsBuf [4]reusableKeep
	// first and decoded map the keys logged by this decode to the values
	// (a *T for Reused and ReusedPointer, a []T for ReusedRun): the first
	// few in first, looked up without a map (a watch event's object logs
	// one or two), the others in decoded, made on first use.
	first   [4]loggedValue
	nFirst  int
	decoded map[intern.MessageKey]any
	// collectItems, set by CollectItems, has AppendItem decode each item
	// of a list into an allocation of its own, logged in items (a *T
	// each).
	collectItems bool
	items        []any
	// forCaller, set by ForCaller, says the log will not be committed.
	forCaller bool
}

// ForCaller says the object decoded is the caller's own, not kept for
// reuse: what the decode logs serves later parts of the same decode only,
// and Commit keeps none of it. Parts that rely on the log for sharing with
// other objects (see SetSharedBytes) then share through the tables.
func (l *ReuseLog) ForCaller() { l.forCaller = true }

// loggedValue is a value this decode logged, with its key.
type loggedValue struct {
	key   intern.MessageKey
	value any
}

// lookup returns the value this decode logged for key, or nil.
func (l *ReuseLog) lookup(key intern.MessageKey) any {
	for i := range l.nFirst {
		if l.first[i].key == key {
			return l.first[i].value
		}
	}
	if l.decoded != nil {
		return l.decoded[key]
	}
	return nil
}

// CollectItems has the decode give each item of a list an allocation of
// its own (see AppendItem), which Items returns once it succeeded.
func (l *ReuseLog) CollectItems() { l.collectItems = true }

// Items returns the allocations AppendItem made for the items of the list
// decoded, in order.
func (l *ReuseLog) Items() []any { return l.items }

type reusableKeep struct {
	key intern.MessageKey
	ref any // a weak.Pointer to the decoded value
}

// Commit makes the messages logged reusable through s, unless the object
// decoded is the caller's (ForCaller).
func (l *ReuseLog) Commit(s *intern.DecodeSharing) {
	if l.forCaller {
		l.keeps = l.keeps[:0]
		return
	}
	for _, k := range l.keeps {
		s.KeepReusable(k.key, k.ref)
	}
	l.keeps = l.keeps[:0]
}

// minReusedMessage is the size below which a message is decoded, not
// reused: hashing it and keeping a weak pointer would cost about as much.
const minReusedMessage = 256

// Reused decodes the embedded message field num (one that appears once)
// into v as Embedded does. With a DecodeSharing and a ReuseLog, when a
// value decoded before from the same bytes is still alive (kept by the
// DecodeSharing, or the last of this decode: see ReuseLog), v becomes a
// copy of it instead (sharing its slices, maps and pointers, as objects in
// an informer's cache may): an object's spec is the same from one version
// of it to the next. Either way v is logged as decoded from those bytes.
//
// A field that appears twice is merged into by the reference; such input
// is left to it (ErrFallback), so that no shared value is written into.
func Reused[T any](r *Reader, typ int, num int32, v *T, dec func(Reader, *T) error) error {
	if r.reuse == nil {
		return Embedded(r, typ, v, dec)
	}
	if num < 64 {
		bit := uint64(1) << num
		if r.reusedFields&bit != 0 {
			return ErrFallback
		}
		r.reusedFields |= bit
	}
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if len(b) < minReusedMessage {
		return dec(r.nested(b), v)
	}
	key := r.share.MessageKey(b)
	if p := reusableValue[T](r.share, r.reuse, key); p != nil {
		*v = *p
	} else if err := dec(r.nested(b), v); err != nil {
		return err
	}
	logDecoded(r.reuse, key, v, weak.Make(v))
	return nil
}

// reusableValue returns a live value decoded from the bytes of key: one
// this decode logged, or one that s keeps; nil if none.
func reusableValue[T any](s *intern.DecodeSharing, log *ReuseLog, key intern.MessageKey) *T {
	if p, ok := log.lookup(key).(*T); ok {
		return p
	}
	if held, ok := s.Reusable(key); ok {
		if ref, ok := held.(weak.Pointer[T]); ok {
			return ref.Value()
		}
	}
	return nil
}

// logDecoded logs value, kept as ref for other decodes, as decoded from
// the bytes of key.
func logDecoded(l *ReuseLog, key intern.MessageKey, value, ref any) {
	switch {
	case l.nFirst < len(l.first):
		l.first[l.nFirst] = loggedValue{key, value}
		l.nFirst++
	case l.decoded == nil:
		l.decoded = make(map[intern.MessageKey]any)
		fallthrough
	default:
		l.decoded[key] = value
	}
	if l.keeps == nil {
		l.keeps = l.keepsBuf[:0]
	}
	l.keeps = append(l.keeps, reusableKeep{key, ref})
}

// weakRun refers to the elements of a slice decoded by ReusedRun without
// holding them alive.
type weakRun[T any] struct {
	first weak.Pointer[T]
	n     int
}

// ReusedRun decodes the run of repeated message field num that starts at
// the key just read (all of its elements) as AppendMessage decodes each.
// With a DecodeSharing and a ReuseLog, when a slice decoded before from
// the same bytes is still alive, *v becomes that slice instead: the
// tolerations of one ReplicaSet's pods are equal while their specs differ
// in the node they run on (containers and volumes, which differ in the
// token volume, go through ReusedRunParts). A decoded slice is
// logged with its capacity cut to its length, so that nobody appending to
// a copy of it writes into its array.
//
// The reference appends elements that come later to the first ones.
// Elements in several runs of one message (no encoder writes that), and
// runs too short to be worth a key, go into a slice this Reader makes and
// remembers; a field met again in another message (its message repeated,
// merged by the reference) may hold a reused slice, and such input is left
// to the reference (ErrFallback).
func ReusedRun[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error) error {
	start, end, n, ok, err := runToReuse(r, typ, num, v, dec)
	if !ok || err != nil {
		return err
	}
	key := r.share.MessageKey(r.b[start:end])
	if held := reusableRun[S](r.share, r.reuse, key); held != nil {
		*v = held
		r.i = end
		return nil
	}
	out, err := decodeRun[S](r, n, dec, ElementParts[T]{})
	if err != nil {
		return err
	}
	*v = out
	logDecoded(r.reuse, key, out, weakRun[T]{weak.Make(&out[0]), n})
	return nil
}

// ElementParts names the fields in which the elements of a run differ from
// one owner's object to the next while the rest of each element is equal:
// the mount of the service account token volume, whose name is each pod's
// own, in every container. Vary has the bit of each such field number (all
// below 64); DecodeVary decodes those fields alone into an element,
// replacing what it held in them.
type ElementParts[T any] struct {
	Vary       uint64
	DecodeVary func(Reader, *T) error
}

// ReusedRunParts is ReusedRun for a run whose elements differ in the fields
// parts names. The run is not looked up or logged as a whole: in a real
// cluster no two pods have equal runs of containers or volumes (the token
// volume's name differs), and a pod whose spec changed while its
// containers did not finds them element by element. Each element of
// minReusedMessage bytes or more is looked up by its other fields: when an
// element decoded before from the same other fields is still alive, the
// element is a copy of it (sharing its slices, maps and pointers) whose
// varying fields are then decoded from its own bytes. The elements it
// decodes whole are logged by their other fields.
func ReusedRunParts[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error, parts ElementParts[T]) error {
	_, _, n, ok, err := runToReuse(r, typ, num, v, dec)
	if !ok || err != nil {
		return err
	}
	out, err := decodeRun[S](r, n, dec, parts)
	if err != nil {
		return err
	}
	*v = out
	return nil
}

// runToReuse readies the decode of the run of repeated message field num
// that starts at the key just read, for ReusedRun and ReusedRunParts: ok
// says the run, from start to end, holds all n of the field's elements and
// is long enough to be worth a key. Otherwise (no ReuseLog, elements in
// several runs, a short run) it has decoded the elements as AppendMessage
// does, into a slice this Reader makes and remembers, or failed.
func runToReuse[S ~[]T, T any](r *Reader, typ int, num int32, v *S, dec func(Reader, *T) error) (start, end, n int, ok bool, err error) {
	if r.reuse == nil || typ != wireBytes || num >= 64 {
		return 0, 0, 0, false, AppendMessage(r, typ, num, v, dec)
	}
	bit := uint64(1) << num
	if *v != nil {
		if r.privateRuns&bit == 0 {
			return 0, 0, 0, false, ErrFallback
		}
		return 0, 0, 0, false, AppendMessage(r, typ, num, v, dec)
	}
	start = r.key
	end, n = r.run(num)
	if n == 0 || end-start < minReusedMessage || r.count(num) != n {
		// Elements in several runs go into a slice this Reader makes.
		r.privateRuns |= bit
		return 0, 0, 0, false, AppendMessage(r, typ, num, v, dec)
	}
	return start, end, n, true, nil
}

// decodeRun decodes the n elements of the run whose first key was just
// read into a new slice with no room to append into. Elements of
// minReusedMessage bytes or more are looked up by parts when it names
// varying fields (see reusedElement); the others are decoded with dec.
func decodeRun[S ~[]T, T any](r *Reader, n int, dec func(Reader, *T) error, parts ElementParts[T]) (S, error) {
	out := make(S, n)
	for i := range out {
		if i > 0 {
			if _, typ, err := r.Key(); err != nil {
				return nil, err
			} else if typ != wireBytes {
				return nil, ErrFallback
			}
		}
		b, err := r.Bytes(wireBytes)
		if err != nil {
			return nil, err
		}
		if parts.DecodeVary != nil && len(b) >= minReusedMessage {
			err = reusedElement(r, b, &out[i], dec, parts)
		} else {
			err = dec(r.nested(b), &out[i])
		}
		if err != nil {
			return nil, err
		}
	}
	return out[:n:n], nil
}

// reusableRun returns a live slice decoded from the bytes of key: one this
// decode logged, or one that s keeps; nil if none.
func reusableRun[S ~[]T, T any](s *intern.DecodeSharing, log *ReuseLog, key intern.MessageKey) S {
	if held, ok := log.lookup(key).(S); ok {
		return held
	}
	if held, ok := s.Reusable(key); ok {
		if ref, ok := held.(weakRun[T]); ok {
			if first := ref.first.Value(); first != nil {
				return S(unsafe.Slice(first, ref.n))
			}
		}
	}
	return nil
}

// minReusedPart is the size below which an optional message inside a
// spec (a probe, a volume's source, a security context) is decoded, not
// reused.
const minReusedPart = 64

// ReusedPointer decodes the optional message field num as Pointer does.
// With a DecodeSharing and a ReuseLog, when a value decoded before from
// the same bytes is still alive (kept by the DecodeSharing, or decoded
// earlier in this decode), *v becomes that value itself: the probes,
// security contexts and volume sources of one owner's pods are equal
// while their containers and volumes differ in a name (the service
// account token volume each pod gets is one); an object's managed-fields
// sets are the same from one version of it to the next. The value decoded
// is logged as decoded from those bytes.
//
// A field that appears twice is merged into by the reference; when the
// first was shared, such input is left to it (ErrFallback).
func ReusedPointer[T any](r *Reader, typ int, num int32, v **T, dec func(Reader, *T) error) error {
	if r.reuse == nil || typ != wireBytes || num >= 64 {
		return Pointer(r, typ, v, dec)
	}
	bit := uint64(1) << num
	if *v != nil {
		if r.reusedFields&bit != 0 {
			return ErrFallback
		}
		return Pointer(r, typ, v, dec)
	}
	b, err := r.Bytes(typ)
	if err != nil {
		return err
	}
	if len(b) < minReusedPart {
		p := newMessage[T](r)
		if err := dec(r.nested(b), p); err != nil {
			return err
		}
		*v = p
		return nil
	}
	r.reusedFields |= bit
	key := r.share.MessageKey(b)
	if p := reusableValue[T](r.share, r.reuse, key); p != nil {
		*v = p
		return nil
	}
	p := new(T)
	n := r.nested(b)
	n.logged = !r.reuse.forCaller
	if err := dec(n, p); err != nil {
		return err
	}
	*v = p
	logDecoded(r.reuse, key, p, weak.Make(p))
	return nil
}

// reusedElement decodes element b of a run into v, which is zero, as
// ReusedRunParts says: a copy of a live element with the same fields but
// those parts.Vary names, whose varying fields are then decoded from b, or
// else decoded whole and logged.
func reusedElement[T any](r *Reader, b []byte, v *T, dec func(Reader, *T) error, parts ElementParts[T]) error {
	key, ok := partsKey(r.share, b, parts.Vary)
	if !ok {
		return dec(r.nested(b), v)
	}
	if p := reusableValue[T](r.share, r.reuse, key); p != nil {
		*v = *p
		return parts.DecodeVary(r.nested(b), v)
	}
	if err := dec(r.nested(b), v); err != nil {
		return err
	}
	logDecoded(r.reuse, key, v, weak.Make(v))
	return nil
}

// partsKey returns the key of message b without its fields in vary: the
// key of the bytes of its other fields, in order. ok is false when b does
// not parse.
func partsKey(s *intern.DecodeSharing, b []byte, vary uint64) (key intern.MessageKey, ok bool) {
	var h intern.MessageKeyHash
	s.StartMessageKey(&h)
	f := NewReader(b)
	start := 0
	for f.More() {
		at := f.i
		num, _, err := f.Key()
		if err != nil {
			return key, false
		}
		if err := f.Skip(); err != nil {
			return key, false
		}
		if num >= 0 && num < 64 && vary&(1<<num) != 0 {
			h.Write(b[start:at])
			start = f.i
		}
	}
	h.Write(b[start:])
	return h.Key(), true
}
