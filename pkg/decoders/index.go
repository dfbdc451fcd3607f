package decoders

import (
	"cmp"
	"slices"

	"github.com/kubeclient/client-go/internal/jsonscan"
)

// Index validates data as one JSON document and returns a lexer over it
// holding the document's container index, so that a caller can look at
// the document (its top-level members, say) and then decode it with
// Decode without checking its syntax again. The error is ErrSyntax for
// input Validate rejects. The caller must Release the lexer when done;
// nothing read from it may be used after that.
func Index(data []byte) (*Lexer, error) {
	if len(data) > maxIndexed || len(data) > scanAbove {
		// Too long for a span's offsets, or long enough that its index
		// would add a third to the heap the document takes.
		return Unindexed(data)
	}
	l := lexers.Get().(*Lexer)
	l.reserveSpans(data)
	if err := validate(data, &l.spans); err != nil {
		l.release()
		return nil, err
	}
	l.data, l.st.Interner = data, defaultInterner()
	return l, nil
}

// scanAbove is the length above which Index keeps no index: that of a
// list far larger than an informer's pages (500 pods are about 3 MB), an
// unpaginated list of thousands of objects, whose index would be about a
// third of its size.
const scanAbove = 8 << 20

// Unindexed is Index without the container index: the lexer scans
// containers to skip or count them. It is what Index does for documents
// longer than scanAbove.
func Unindexed(data []byte) (*Lexer, error) {
	if err := Validate(data); err != nil {
		return nil, err
	}
	return newLexer(data, defaultInterner()), nil
}

// Release gives back a lexer that Index returned.
func (l *Lexer) Release() {
	if l.spans != nil {
		l.release()
	}
}

// Bytes returns the document the lexer reads.
func (l *Lexer) Bytes() []byte { return l.data }

// Rewind moves the lexer back to the start of its document.
func (l *Lexer) Rewind() { l.pos, l.next = 0, 0 }

// Decode decodes the whole document of l, from its start, into v with dec.
// A nil v is refused, as the reference refuses it, without reading; a nil
// l stands for a document Index rejected and gives ErrSyntax.
func Decode[T any](l *Lexer, v *T, dec func(*Lexer, *T) error) error {
	if v == nil {
		return ErrMismatch
	}
	if l == nil {
		return ErrSyntax
	}
	l.Rewind()
	return dec(l, v)
}

// Member reads the next member of an object opened with OpenObject, up to
// and including the colon, and returns its name as it stands between the
// quotes. plain reports that the name has neither escapes nor bytes
// outside ASCII, so that the raw name is the name. ok is false, the
// closing brace consumed, when the object has no more members.
func (l *Lexer) Member() (name []byte, plain, ok bool) {
	name, _, ok = l.rawKey()
	return name, ok && ASCIIPlain(name), ok
}

// ASCIIPlain reports whether the raw string body b has neither escapes
// nor non-ASCII bytes, so that its bytes are its value.
func ASCIIPlain(b []byte) bool { return jsonscan.ASCIIPlain(b) }

// ASCIIEqualFold reports whether name equals lower (all lower-case ASCII
// letters) ignoring ASCII case.
func ASCIIEqualFold(name []byte, lower string) bool {
	if len(name) != len(lower) {
		return false
	}
	for i, c := range name {
		if c|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// Status is the outcome of IndexPrefix.
type Status uint8

const (
	// Complete: data starts with a well-formed value.
	Complete Status = iota
	// Short: data ends inside the value with no error before its end.
	Short
	// Invalid: the value has a syntax error or nests too deep.
	Invalid
)

// IndexPrefix validates and indexes the JSON value at the start of data
// (leading whitespace allowed), ignoring what follows it. When it is
// Complete it returns a lexer over data[:end], end being the offset after
// the value, to Release as Index's; otherwise the lexer is nil.
func IndexPrefix(data []byte) (l *Lexer, end int, st Status) {
	if len(data) > maxIndexed {
		data = data[:maxIndexed]
	}
	l = lexers.Get().(*Lexer)
	l.reserveSpans(data)
	if end, st = prefix(data, &l.spans); st != Complete {
		l.release()
		return nil, end, st
	}
	l.data, l.st.Interner = data[:end], defaultInterner()
	return l, end, Complete
}

// ValidatePrefix is IndexPrefix without the index, for a caller that only
// needs to know where the value ends.
func ValidatePrefix(data []byte) (end int, st Status) {
	return prefix(data, nil)
}

// prefix validates the value at the start of data, recording its
// containers into spans when not nil. The outcomes are jsonscan's, in the
// same order (TestStatusIsScanners).
func prefix(data []byte, spans *[]span) (int, Status) {
	end, st := jsonscan.CheckPrefix(data, spans)
	return end, Status(st)
}

// Extract returns a lexer, to Release as Index's, over data: a copy of
// the value l's document holds at [start, end), with that value's part of
// the index, so that the copy is decoded without validating it again.
func (l *Lexer) Extract(start, end int, data []byte) *Lexer {
	if l.spans == nil {
		return newLexer(data, l.st.Interner) // scans instead
	}
	first, _ := slices.BinarySearchFunc(l.spans, int32(start), func(s span, start int32) int { return cmp.Compare(s.Start, start) })
	last := first
	for last < len(l.spans) && int(l.spans[last].Start) < end {
		last++
	}
	sub := lexers.Get().(*Lexer)
	sub.spans = append(sub.spans[:0], l.spans[first:last]...)
	for i := range sub.spans {
		sub.spans[i].Start -= int32(start)
		sub.spans[i].End -= int32(start)
	}
	sub.data, sub.st.Interner = data, l.st.Interner
	return sub
}

// Offset returns the lexer's position in its document.
func (l *Lexer) Offset() int { return l.pos }
