package decoders

import (
	"errors"
	"math"
)

// ErrSyntax reports input that is not a single well-formed JSON value.
var ErrSyntax = errors.New("jsondecode: invalid JSON")

// maxDepth is the nesting limit of encoding/json's scanner; deeper input is
// rejected there, so it is rejected here too.
const maxDepth = 10000

// Validate reports whether data is exactly one JSON value surrounded by
// optional whitespace, accepting what encoding/json's scanner accepts and
// nothing more.
func Validate(data []byte) error {
	return validate(data, nil)
}

// Malformed reports whether data, the beginning of a JSON value (leading
// whitespace allowed), already has a syntax error, or nests deeper than
// encoding/json allows, before its first value ends; input that is merely
// cut short, or one complete value followed by anything, is not malformed.
func Malformed(data []byte) bool {
	v := validator{data: data}
	v.ws()
	return !v.value(0) && !v.short
}

// validate is Validate recording the containers into spans when not nil.
func validate(data []byte, spans *[]span) error {
	v := validator{data: data, spans: spans}
	v.ws()
	if !v.value(0) {
		return ErrSyntax
	}
	v.ws()
	if v.pos != len(data) {
		return ErrSyntax
	}
	return nil
}

type validator struct {
	data []byte
	pos  int
	// spans, when not nil, receives every object and array in document
	// order, so the lexer can skip and size them without rescanning.
	spans *[]span
	// short is set when validation failed only because data ended: more
	// input could still make it well formed.
	short bool
}

// span is one object or array of a validated document: where it starts
// and ends (one past the closing bracket), and its member count. The
// fields are 32 bits wide, halving the index of a large list; Top records
// no spans for documents longer than maxIndexed.
type span struct {
	start, end, n int32
}

// maxIndexed is the longest document whose containers fit a span.
const maxIndexed = math.MaxInt32

// open records the container starting at v.pos and returns its index.
func (v *validator) open() int {
	if v.spans == nil {
		return -1
	}
	*v.spans = append(*v.spans, span{start: int32(v.pos)})
	return len(*v.spans) - 1
}

// close completes the record of container i, which ended just before
// v.pos and had n members.
func (v *validator) close(i, n int) {
	if i >= 0 {
		(*v.spans)[i].end, (*v.spans)[i].n = int32(v.pos), int32(n)
	}
}

func (v *validator) ws() {
	for v.pos < len(v.data) && isSpace(v.data[v.pos]) {
		v.pos++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// end reports false for input that ends at v.pos, noting that it is short.
func (v *validator) end() bool {
	v.short = true
	return false
}

func (v *validator) value(depth int) bool {
	if v.pos >= len(v.data) {
		return v.end()
	}
	switch c := v.data[v.pos]; {
	case c == '{':
		return v.object(depth + 1)
	case c == '[':
		return v.array(depth + 1)
	case c == '"':
		return v.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return v.number()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	}
	return false
}

func (v *validator) literal(lit string) bool {
	if rest := v.data[v.pos:]; len(rest) < len(lit) {
		if string(rest) == lit[:len(rest)] {
			return v.end()
		}
		return false
	}
	if string(v.data[v.pos:v.pos+len(lit)]) != lit {
		return false
	}
	v.pos += len(lit)
	return true
}

func (v *validator) object(depth int) bool {
	if depth > maxDepth {
		return false
	}
	rec := v.open()
	v.pos++ // '{'
	v.ws()
	if v.pos >= len(v.data) {
		return v.end()
	}
	if v.data[v.pos] == '}' {
		v.pos++
		v.close(rec, 0)
		return true
	}
	for n := 1; ; n++ {
		if v.pos >= len(v.data) {
			return v.end()
		}
		if v.data[v.pos] != '"' || !v.str() {
			return false
		}
		v.ws()
		if v.pos >= len(v.data) {
			return v.end()
		}
		if v.data[v.pos] != ':' {
			return false
		}
		v.pos++
		v.ws()
		if !v.value(depth) {
			return false
		}
		v.ws()
		if v.pos >= len(v.data) {
			return v.end()
		}
		switch v.data[v.pos] {
		case ',':
			v.pos++
			v.ws()
		case '}':
			v.pos++
			v.close(rec, n)
			return true
		default:
			return false
		}
	}
}

func (v *validator) array(depth int) bool {
	if depth > maxDepth {
		return false
	}
	rec := v.open()
	v.pos++ // '['
	v.ws()
	if v.pos >= len(v.data) {
		return v.end()
	}
	if v.data[v.pos] == ']' {
		v.pos++
		v.close(rec, 0)
		return true
	}
	for n := 1; ; n++ {
		if !v.value(depth) {
			return false
		}
		v.ws()
		if v.pos >= len(v.data) {
			return v.end()
		}
		switch v.data[v.pos] {
		case ',':
			v.pos++
			v.ws()
		case ']':
			v.pos++
			v.close(rec, n)
			return true
		default:
			return false
		}
	}
}

// str validates a string starting at its opening quote: no control
// characters, only the escapes JSON defines. Bytes >= 0x80 are accepted
// whatever their UTF-8 validity, as encoding/json's scanner does.
func (v *validator) str() bool {
	d := v.data
	i := v.pos + 1
	for i < len(d) {
		i += validLen(d, i)
		if i >= len(d) {
			return v.end()
		}
		switch d[i] {
		case '"':
			v.pos = i + 1
			return true
		case '\\':
			if i+1 >= len(d) {
				return v.end()
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(d) {
						return v.end()
					}
					if !isHex(d[k]) {
						return false
					}
				}
				i += 6
			default:
				return false
			}
		default: // control character
			return false
		}
	}
	return v.end()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number validates -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (v *validator) number() bool {
	d := v.data
	i := v.pos
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return v.end()
	}
	if d[i] == '0' {
		i++
	} else if d[i] >= '1' && d[i] <= '9' {
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	} else {
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) {
			return v.end()
		}
		if !isDigit(d[i]) {
			return false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) {
			return v.end()
		}
		if !isDigit(d[i]) {
			return false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	v.pos = i
	return true
}
