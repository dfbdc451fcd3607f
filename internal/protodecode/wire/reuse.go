package wire

import (
	"weak"

	"github.com/kubeclient/client-go/internal/intern"
)

// ReuseLog collects the messages decoded for reuse while one object is
// decoded. They become reusable (Commit) only once the whole object has
// decoded: a decode that fails or is left to the reference resets the
// object, and nobody may have copied its parts before that.
type ReuseLog struct {
	keeps []reusableKeep
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
// value decoded before from the same bytes is still alive, v becomes a
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
	if held, ok := r.share.Reusable(key); ok {
		if ref, ok := held.(weak.Pointer[T]); ok {
			if p := ref.Value(); p != nil {
				*v = *p
				r.reuse.keeps = append(r.reuse.keeps, reusableKeep{key, weak.Make(v)})
				return nil
			}
		}
	}
	if err := dec(r.nested(b), v); err != nil {
		return err
	}
	r.reuse.keeps = append(r.reuse.keeps, reusableKeep{key, weak.Make(v)})
	return nil
}
