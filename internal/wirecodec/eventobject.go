package wirecodec

import (
	"sync/atomic"

	"github.com/kubeclient/client-go/internal/jsondecode/lex"
)

// A watch event's object is decoded in two steps by two decoders: the
// stream's serializer decodes the event envelope, copying the object's
// bytes into the event's RawExtension, then rest/watch's Decoder hands
// those bytes to the embedded decoder. DecodeFrame has validated and
// indexed the whole frame, the object included, so it leaves the object's
// part of the index here, keyed by the very slice it wrote into the event;
// when the embedded decoder (any JSONSerializer) is then given that slice,
// it decodes from the index instead of validating the bytes again.
//
// The key is the slice's identity (its first byte's address and its
// length), not its contents: only DecodeFrame, called by the JSON watch
// stream of internal/responsebody, leaves an entry, for a WatchEvent
// rest/watch's Decoder owns and does not change between the two steps;
// and the entry keeps the slice alive, so no other slice can have that
// address meanwhile. One entry is kept: with several watches decoding at
// once, a missed entry only costs the validation it would have saved.
var eventObject atomic.Pointer[indexedObject]

// indexedObject is the object of the last frame DecodeFrame decoded.
type indexedObject struct {
	raw []byte     // the slice written into the event's RawExtension
	l   *lex.Lexer // its index
}

// rememberEventObject leaves l, the index of raw, for takeEventObject,
// releasing the index it replaces if nobody took it (the object went to
// another decoder, an unstructured one say). Swap and takeEventObject's
// CompareAndSwap give each index one owner.
func rememberEventObject(raw []byte, l *lex.Lexer) {
	if old := eventObject.Swap(&indexedObject{raw: raw, l: l}); old != nil {
		old.l.Release()
	}
}

// takeEventObject returns the index rememberEventObject left for data,
// which is then the caller's to Release, or nil.
func takeEventObject(data []byte) *lex.Lexer {
	e := eventObject.Load()
	if e == nil || len(data) == 0 || len(data) != len(e.raw) || &data[0] != &e.raw[0] {
		return nil
	}
	if !eventObject.CompareAndSwap(e, nil) {
		return nil
	}
	return e.l
}

// TakeCheckedEventObject reports whether data is the object of the watch
// event DecodeFrame decoded last, whose syntax the frame's check covered,
// and consumes that record: a decoder that parses data itself (the
// unstructured decoder of the dynamic client) may then read it as checked
// text instead of checking it a second time.
func TakeCheckedEventObject(data []byte) bool {
	if l := takeEventObject(data); l != nil {
		l.Release()
		return true
	}
	return false
}
