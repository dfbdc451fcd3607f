package wire

import (
	"weak"

	"github.com/kubeclient/client-go/internal/intern"
)

// ReuseLog collects the messages decoded for reuse while one object is
// decoded. They become reusable by other decodes (Commit) only once the
// whole object has decoded: a decode that fails or is left to the
// reference resets the object, and nobody outside it may have copied its
// parts before that. Within the decode, the message logged last is
// reusable at once: the next equal one, in the next item of a list, is a
// copy of it (a list is sorted by name, so the pods of one ReplicaSet come
// one after the other, and those on one node, or not yet scheduled, have
// equal specs). When the decode fails, both are discarded together.
type ReuseLog struct {
	keeps []reusableKeep
	// last points to the message this decode logged last (decoded or
	// copied), from the bytes whose key is lastKey; nil before the first.
	last    any
	lastKey intern.MessageKey
}

type reusableKeep struct {
	key intern.MessageKey
	ref any // a weak.Pointer to the decoded value
}

// Commit makes the messages logged reusable through s.
func (l *ReuseLog) Commit(s *intern.DecodeSharing) {
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
	r.reuse.last, r.reuse.lastKey = v, key
	logDecoded(r.reuse, key, v)
	return nil
}

// reusableValue returns a live value decoded from the bytes of key: the
// message of this decode decoded last, or one that s keeps; nil if none.
func reusableValue[T any](s *intern.DecodeSharing, log *ReuseLog, key intern.MessageKey) *T {
	if p, ok := log.last.(*T); ok && log.lastKey == key {
		return p
	}
	if held, ok := s.Reusable(key); ok {
		if ref, ok := held.(weak.Pointer[T]); ok {
			return ref.Value()
		}
	}
	return nil
}

// logDecoded logs v as decoded from the bytes of key.
func logDecoded[T any](l *ReuseLog, key intern.MessageKey, v *T) {
	l.keeps = append(l.keeps, reusableKeep{key, weak.Make(v)})
}
