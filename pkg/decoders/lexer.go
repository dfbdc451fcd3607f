package decoders

import (
	"errors"

	"github.com/kubeclient/client-go/internal/decoderstate"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/jsonscan"
)

// ErrMismatch reports a JSON value that the Go type cannot take in the way
// the reference decoder would (a type mismatch, an overflowing number, an
// Unmarshaler's own error is returned as is). Decoding stops at the first
// one: everything written before it is also written by the reference, so
// decoding again with the reference gives the reference's result.
var ErrMismatch = errors.New("jsondecode: value does not fit the Go type")

// Lexer reads a validated JSON document. Its methods assume the syntax is
// well formed; they are undefined on input Validate rejected.
type Lexer struct {
	data []byte
	pos  int
	// scratch holds an unescaped object key until the next key is read.
	scratch []byte
	// st is the string table and the decode sharing, which this
	// library's internal packages set through package decoderstate.
	st decoderstate.State
	// spans are the document's containers as validation recorded them;
	// next is the first one not behind pos. Reads only move forward, so
	// finding a container's record is amortized constant time. A lexer
	// made by New has none and scans instead.
	spans []span
	next  int
}

// containerAt returns the record of the object or array starting at pos,
// or nil when the lexer has no records.
func (l *Lexer) containerAt(pos int) *span {
	if l.spans == nil {
		return nil
	}
	for int(l.spans[l.next].Start) < pos {
		l.next++
	}
	return &l.spans[l.next]
}

// newLexer returns a lexer over data, which must have passed Validate.
func newLexer(data []byte, in *intern.Strings) *Lexer {
	return &Lexer{data: data, st: decoderstate.State{Interner: in}}
}

func init() {
	decoderstate.Of = func(l any) *decoderstate.State { return &l.(*Lexer).st }
}

func (l *Lexer) skipSpace() { l.pos = jsonscan.SkipSpace(l.data, l.pos) }

// Next returns the first byte of the next value after whitespace without
// consuming it: '{', '[', '"', 't', 'f', 'n', '-' or a digit.
func (l *Lexer) Next() byte {
	l.skipSpace()
	return l.data[l.pos]
}

// SkipNull consumes the literal null that Next announced.
func (l *Lexer) SkipNull() { l.pos += len("null") }

// OpenObject consumes the '{' that Next announced.
func (l *Lexer) OpenObject() { l.pos++ }

// OpenArray consumes the '[' that Next announced.
func (l *Lexer) OpenArray() { l.pos++ }

// Key reads the next key of an object opened with OpenObject, and the colon
// after it. It returns false, having consumed the closing brace, when the
// object has no more members. The key is unescaped as encoding/json does
// and is valid until the next call.
func (l *Lexer) Key() ([]byte, bool) {
	raw, plain, ok := l.rawKey()
	if !ok || plain {
		return raw, ok
	}
	l.scratch = AppendUnquoted(l.scratch[:0], raw)
	return l.scratch, true
}

// rawKey reads the next key of an object as Key does and returns it as it
// stands between the quotes, with rawString's plain.
func (l *Lexer) rawKey() (raw []byte, plain, ok bool) {
	l.skipSpace()
	c := l.data[l.pos]
	if c == ',' {
		l.pos++
		l.skipSpace()
		c = l.data[l.pos]
	}
	if c == '}' {
		l.pos++
		return nil, false, false
	}
	raw, plain = l.rawString()
	l.skipSpace()
	l.pos++ // ':'
	return raw, plain, true
}

// More reports whether the array opened with OpenArray has another
// element, consuming the separating comma, or the closing bracket when it
// has not.
func (l *Lexer) More() bool {
	l.skipSpace()
	switch l.data[l.pos] {
	case ',':
		l.pos++
		return true
	case ']':
		l.pos++
		return false
	}
	return true
}

// rawString consumes a string and returns its bytes between the quotes;
// plain is true when they are the string itself: no escapes, and valid
// UTF-8 if not ASCII.
func (l *Lexer) rawString() (raw []byte, plain bool) {
	start := l.pos + 1
	l.pos, plain = jsonscan.SkipString(l.data, l.pos)
	return l.data[start : l.pos-1], plain
}

// Skip consumes the next value whatever it is; an object or array is
// skipped through its record when the lexer has them.
func (l *Lexer) Skip() {
	l.skipSpace()
	if c := l.data[l.pos]; c == '{' || c == '[' {
		if sp := l.containerAt(l.pos); sp != nil {
			l.pos = int(sp.End)
			return
		}
	}
	l.pos = jsonscan.SkipValue(l.data, l.pos)
}

// Raw consumes the next value and returns its bytes, without surrounding
// whitespace, as encoding/json hands them to UnmarshalJSON.
func (l *Lexer) Raw() []byte {
	l.skipSpace()
	start := l.pos
	l.Skip()
	return l.data[start:l.pos]
}

// countElements returns the number of elements of the array starting at
// the current position (after whitespace) without consuming it.
func (l *Lexer) countElements() int {
	if sp := l.containerAt(l.pos); sp != nil {
		return int(sp.N)
	}
	save := l.pos
	l.OpenArray()
	n := 0
	for l.More() {
		l.Skip()
		n++
	}
	l.pos = save
	return n
}

// OpenStruct starts decoding a struct: it consumes '{' and returns true,
// or consumes null and returns false with no error (null leaves a struct
// alone), or returns ErrMismatch for any other value.
func (l *Lexer) OpenStruct() (bool, error) {
	switch l.Next() {
	case '{':
		l.pos++
		return true, nil
	case 'n':
		l.SkipNull()
		return false, nil
	}
	return false, ErrMismatch
}
