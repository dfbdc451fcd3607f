package jsonscan

import (
	"math"
	"unicode/utf8"
)

// Status is how the text at the start of a buffer stands as one JSON
// value.
type Status uint8

const (
	// Complete: the text starts with a well-formed value.
	Complete Status = iota
	// Short: the text ends inside the value with no error before its end;
	// more text could complete it.
	Short
	// Invalid: the value has a syntax error or nests deeper than MaxDepth.
	Invalid
)

// MaxDepth is the nesting limit of encoding/json's scanner; deeper input
// is rejected there, so it is rejected here too.
const MaxDepth = 10000

// Span is one object or array of a checked document: where it starts,
// where it ends (the offset after its closing bracket) and how many
// members or elements it has. The fields are 32 bits wide, halving the
// index of a large list; MaxIndexed is the longest document whose spans
// they hold.
type Span struct {
	Start, End, N int32
}

// MaxIndexed is the length of the longest document Span offsets can hold.
const MaxIndexed = math.MaxInt32

// Check reports whether data is exactly one JSON value surrounded by
// optional whitespace, accepting what encoding/json's scanner accepts and
// nothing more. With index not nil it appends every object and array of
// the document to *index in document order (on success; on failure *index
// holds those met before the error); data must then be at most MaxIndexed
// long.
func Check(data []byte, index *[]Span) bool {
	c := checker{data: data, index: index}
	c.pos = SkipSpace(data, 0)
	if !c.value(0) {
		return false
	}
	return SkipSpace(data, c.pos) == len(data)
}

// CheckPrefix checks the JSON value at the start of data (leading
// whitespace allowed) as Check does, ignoring what follows it. When it is
// Complete, end is the offset after the value; index is Check's.
func CheckPrefix(data []byte, index *[]Span) (end int, st Status) {
	c := checker{data: data, index: index}
	c.pos = SkipSpace(data, 0)
	switch {
	case c.value(0):
		return c.pos, Complete
	case c.short:
		return 0, Short
	}
	return 0, Invalid
}

// Malformed reports whether data, the beginning of a JSON value (leading
// whitespace allowed), already has a syntax error, or nests deeper than
// MaxDepth, before its first value ends; text that is merely cut short, or
// one complete value followed by anything, is not malformed.
func Malformed(data []byte) bool {
	_, st := CheckPrefix(data, nil)
	return st == Invalid
}

// String checks the string literal whose opening quote is at d[i] as
// encoding/json's scanner does: no control characters, only the escapes
// JSON defines; bytes >= 0x80 are accepted whatever their UTF-8 validity.
// When Complete, end is the offset after the closing quote and plain
// reports that the bytes between the quotes are the string's value: no
// escapes, valid UTF-8.
func String(d []byte, i int) (end int, plain bool, st Status) {
	if j := i + 1 + asciiLen(d, i+1); j < len(d) && d[j] == '"' {
		return j + 1, true, Complete // ASCII without escapes, most strings
	}
	c := checker{data: d, pos: i}
	if !c.str() {
		if c.short {
			return 0, false, Short
		}
		return 0, false, Invalid
	}
	return c.pos, !c.escapes && utf8.Valid(d[i+1:c.pos-1]), Complete
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits returns the offset after the run of decimal digits at d[i:].
func digits(d []byte, i int) int {
	for i < len(d) && isDigit(d[i]) {
		i++
	}
	return i
}

// Number checks the number literal starting at d[i] against JSON's
// grammar, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, taking the
// longest match. When Complete, end is the offset after it and integer
// reports that it has neither fraction nor exponent. Text that ends where
// the grammar needs another digit is Short.
func Number(d []byte, i int) (end int, integer bool, st Status) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return 0, false, Short
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		i = digits(d, i+1)
	default:
		return 0, false, Invalid
	}
	integer = true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		if i >= len(d) {
			return 0, false, Short
		}
		if !isDigit(d[i]) {
			return 0, false, Invalid
		}
		i = digits(d, i)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) {
			return 0, false, Short
		}
		if !isDigit(d[i]) {
			return 0, false, Invalid
		}
		i = digits(d, i)
	}
	return i, integer, Complete
}
