package wirecodec

// This file holds the JSON syntax checker every fast path here builds on.
// It accepts exactly what encoding/json accepts (and sigs.k8s.io/json, its
// fork), nesting limit included, but only answers whether a value is well
// formed and where it ends; the reference decoders produce every error text.

// Status is the outcome of checking a JSON value.
type Status uint8

const (
	// Complete: the value is well formed and ends at the returned offset.
	Complete Status = iota
	// Short: the input ends inside the value with no error before its end;
	// more input could complete it.
	Short
	// Invalid: the input has a syntax error, or nests deeper than the
	// reference decoders allow.
	Invalid
)

// maxDepth is the nesting limit of encoding/json's scanner: an object or
// array opened at a deeper level is an error.
const maxDepth = 10000

// String flags report what a string literal contains besides plain ASCII.
const (
	strEscaped  = 1 << iota // a backslash escape
	strNonASCII             // a byte >= 0x80
)

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

// SkipSpace returns the offset of the first non-whitespace byte at or after i.
func SkipSpace(data []byte, i int) int { return skipSpace(data, i) }

// skipSpace returns the offset of the first non-whitespace byte at or after i.
func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// scanString checks the string literal whose opening quote is at data[i]
// and returns the offset after its closing quote and its flags.
func scanString(data []byte, i int) (end int, flags int, st Status) {
	i++
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			return i + 1, flags, Complete
		case c == '\\':
			flags |= strEscaped
			if i+1 >= len(data) {
				return i, flags, Short
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(data) {
						return k, flags, Short
					}
					if !isHex(data[k]) {
						return k, flags, Invalid
					}
				}
				i += 6
			default:
				return i + 1, flags, Invalid
			}
		case c < 0x20:
			return i, flags, Invalid
		default:
			if c >= 0x80 {
				flags |= strNonASCII
			}
			i++
		}
	}
	return i, flags, Short
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scanNumber checks the number literal starting at data[i]. It is Short
// when data ends where the number cannot (after "-", "." or the exponent
// mark); a number running to the end of data otherwise is Complete, and the
// caller decides whether a value may end there.
func scanNumber(data []byte, i int) (int, Status) {
	if data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return i, Short
	}
	switch {
	case data[i] == '0':
		i++
	case '1' <= data[i] && data[i] <= '9':
		for i++; i < len(data) && isDigit(data[i]); i++ {
		}
	default:
		return i, Invalid
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) {
			return i, Short
		}
		if !isDigit(data[i]) {
			return i, Invalid
		}
		for i++; i < len(data) && isDigit(data[i]); i++ {
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			return i, Short
		}
		if !isDigit(data[i]) {
			return i, Invalid
		}
		for i++; i < len(data) && isDigit(data[i]); i++ {
		}
	}
	return i, Complete
}

// scanLiteral checks that data[i:] starts with word (true, false or null).
func scanLiteral(data []byte, i int, word string) (int, Status) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(data) {
			return i + k, Short
		}
		if data[i+k] != word[k] {
			return i + k, Invalid
		}
	}
	return i + len(word), Complete
}

// ScanValue checks the JSON value starting at or after data[i] (leading
// whitespace skipped), opened inside depth containers already, and returns
// the offset after it. A top-level number running to the end of data is
// Complete, though more input could extend it.
func ScanValue(data []byte, i, depth int) (int, Status) {
	// open holds the containers opened by this value, innermost last.
	var stackBuf [32]byte
	open := stackBuf[:0]
	var st Status
	for {
		// A value is expected at i.
		i = skipSpace(data, i)
		if i >= len(data) {
			return i, Short
		}
		switch c := data[i]; {
		case c == '{' || c == '[':
			if depth+len(open)+1 > maxDepth {
				return i, Invalid
			}
			i = skipSpace(data, i+1)
			if i >= len(data) {
				return i, Short
			}
			if data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				i++
				break
			}
			open = append(open, c)
			if c == '{' {
				if i, st = scanMemberName(data, i); st != Complete {
					return i, st
				}
			}
			continue
		case c == '"':
			i, _, st = scanString(data, i)
		case c == '-' || isDigit(c):
			i, st = scanNumber(data, i)
		case c == 't':
			i, st = scanLiteral(data, i, "true")
		case c == 'f':
			i, st = scanLiteral(data, i, "false")
		case c == 'n':
			i, st = scanLiteral(data, i, "null")
		default:
			return i, Invalid
		}
		if st != Complete {
			return i, st
		}
		// A value ended at i: close containers until one has more members.
		for {
			if len(open) == 0 {
				return i, Complete
			}
			i = skipSpace(data, i)
			if i >= len(data) {
				return i, Short
			}
			top := open[len(open)-1]
			c := data[i]
			if c == top+2 {
				open = open[:len(open)-1]
				i++
				continue
			}
			if c != ',' {
				return i, Invalid
			}
			i++
			if top == '{' {
				if i, st = scanMemberName(data, skipSpace(data, i)); st != Complete {
					return i, st
				}
			}
			break
		}
	}
}

// scanMemberName checks `"name" :` at data[i] and returns the offset after
// the colon.
func scanMemberName(data []byte, i int) (int, Status) {
	if i >= len(data) {
		return i, Short
	}
	if data[i] != '"' {
		return i, Invalid
	}
	i, _, st := scanString(data, i)
	if st != Complete {
		return i, st
	}
	i = skipSpace(data, i)
	if i >= len(data) {
		return i, Short
	}
	if data[i] != ':' {
		return i, Invalid
	}
	return i + 1, Complete
}

// Member is one member of a top-level JSON object.
type Member struct {
	// Name is the raw member name between the quotes; Flags says whether
	// it has escapes or non-ASCII bytes.
	Name  []byte
	Flags int
	// Value is the raw value, without surrounding whitespace.
	Value []byte
}

// ScanObject checks the JSON object opening at data[i] (after optional
// whitespace) and calls member for each of its members in order. It
// returns the offset after the closing brace.
func ScanObject(data []byte, i int, member func(Member)) (int, Status) {
	i = skipSpace(data, i)
	if i >= len(data) {
		return i, Short
	}
	if data[i] != '{' {
		return i, Invalid
	}
	i = skipSpace(data, i+1)
	if i >= len(data) {
		return i, Short
	}
	if data[i] == '}' {
		return i + 1, Complete
	}
	for {
		if i >= len(data) {
			return i, Short
		}
		if data[i] != '"' {
			return i, Invalid
		}
		nameStart := i
		end, flags, st := scanString(data, i)
		if st != Complete {
			return end, st
		}
		i = skipSpace(data, end)
		if i >= len(data) {
			return i, Short
		}
		if data[i] != ':' {
			return i, Invalid
		}
		valueStart := skipSpace(data, i+1)
		valueEnd, st := ScanValue(data, valueStart, 1)
		if st != Complete {
			return valueEnd, st
		}
		member(Member{Name: data[nameStart+1 : end-1], Flags: flags, Value: data[valueStart:valueEnd]})
		i = skipSpace(data, valueEnd)
		if i >= len(data) {
			return i, Short
		}
		switch data[i] {
		case '}':
			return i + 1, Complete
		case ',':
			i = skipSpace(data, i+1)
		default:
			return i, Invalid
		}
	}
}
