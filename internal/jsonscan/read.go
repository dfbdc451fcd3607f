package jsonscan

import (
	"encoding/binary"
	"unicode/utf8"
)

// SkipString, SkipValue (and AppendUnquoted) take text that Check or
// CheckPrefix accepted; on other text their results are undefined (they
// may read past a value's end or index out of range).

// IsSpace reports whether c is JSON whitespace. Most bytes are above the
// space, which one comparison tells.
func IsSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// SkipSpace returns the offset of the first byte from d[i] on that is not
// whitespace, len(d) if there is none. It is safe on any text.
func SkipSpace(d []byte, i int) int {
	for i < len(d) && IsSpace(d[i]) {
		i++
	}
	return i
}

// SkipString returns the offset after the checked string literal whose
// opening quote is at d[i], and plain: the bytes between the quotes are
// the string's value (no escapes, valid UTF-8).
func SkipString(d []byte, i int) (end int, plain bool) {
	start := i + 1
	i = start
	escaped, high := false, false
	for {
		i += plainLen(d, i)
		c := d[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			i += 2
			continue
		}
		high = true
		i++
	}
	return i + 1, !escaped && (!high || utf8.Valid(d[start:i]))
}

// SkipValue returns the offset after the checked value starting at d[i]
// (no whitespace before it).
func SkipValue(d []byte, i int) int {
	switch d[i] {
	case '"':
		end, _ := SkipString(d, i)
		return end
	case '{', '[':
		var s Scanner
		n, _ := s.Scan(d[i:])
		return i + n
	}
	// A number or a literal: it ends at a delimiter or the end of d.
	for i < len(d) {
		switch d[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// SkipNumber returns the offset after the checked number literal starting
// at d[i], and integer: it has neither fraction nor exponent.
func SkipNumber(d []byte, i int) (end int, integer bool) {
	integer = true
	for ; i < len(d); i++ {
		switch c := d[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+':
		case c == '.', c == 'e', c == 'E':
			integer = false
		default:
			return i, integer
		}
	}
	return i, integer
}

// ASCIIPlain reports whether the string body b (the bytes between a
// string's quotes) has neither escapes nor bytes >= 0x80, so that its
// bytes are its value, and one ASCII case fold compares it. It is safe on
// any bytes.
func ASCIIPlain(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if hasByte(w, '\\')|(w&highs) != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}
