package decoders

import (
	"encoding/base64"
	"strconv"

	"github.com/kubeclient/client-go/internal/jsonscan"
)

// str reads the string value Next announced and returns its unquoted
// bytes, valid until the next read.
func (l *Lexer) str() []byte {
	raw, plain := l.rawString()
	if plain {
		return raw
	}
	l.scratch = AppendUnquoted(l.scratch[:0], raw)
	return l.scratch
}

// number consumes the number token Next announced and returns its bytes.
func (l *Lexer) number() []byte {
	start := l.pos
	l.pos = jsonscan.SkipValue(l.data, start)
	return l.data[start:l.pos]
}

// String decodes a JSON string into v, sharing its storage through the
// lexer's string table. null leaves v alone.
func String[S ~string](l *Lexer, v *S) error {
	switch l.Next() {
	case '"':
		*v = S(l.st.Interner.FromBytes(l.str()))
		return nil
	case 'n':
		l.SkipNull()
		return nil
	}
	return ErrMismatch
}

// UniqueString is String for values that rarely repeat (object names,
// UIDs, resource versions): it allocates each one instead of interning it.
func UniqueString[S ~string](l *Lexer, v *S) error {
	switch l.Next() {
	case '"':
		*v = S(l.str())
		return nil
	case 'n':
		l.SkipNull()
		return nil
	}
	return ErrMismatch
}

// Bool decodes true or false into v; null leaves it alone.
func Bool[B ~bool](l *Lexer, v *B) error {
	switch l.Next() {
	case 't':
		l.pos += len("true")
		*v = true
		return nil
	case 'f':
		l.pos += len("false")
		*v = false
		return nil
	case 'n':
		l.SkipNull()
		return nil
	}
	return ErrMismatch
}

// numberToken returns the number token Next announced; ok is false for
// null (consumed) and the token is nil for anything but a number.
func (l *Lexer) numberToken() (tok []byte, isNull bool) {
	switch c := l.Next(); {
	case c == '-' || (c >= '0' && c <= '9'):
		return l.number(), false
	case c == 'n':
		l.SkipNull()
		return nil, true
	}
	return nil, false
}

// Int decodes an integer into v as strconv.ParseInt does for the reference
// (no fraction, no exponent), failing when it overflows v's type.
func Int[I ~int | ~int8 | ~int16 | ~int32 | ~int64](l *Lexer, v *I) error {
	tok, isNull := l.numberToken()
	if isNull {
		return nil
	}
	n, ok := parseInt(tok)
	if !ok || int64(I(n)) != n {
		return ErrMismatch
	}
	*v = I(n)
	return nil
}

// Uint decodes a non-negative integer into v as strconv.ParseUint does.
func Uint[U ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](l *Lexer, v *U) error {
	tok, isNull := l.numberToken()
	if isNull {
		return nil
	}
	n, ok := parseUint(tok)
	if !ok || uint64(U(n)) != n {
		return ErrMismatch
	}
	*v = U(n)
	return nil
}

// Float64 decodes a number into v with strconv.ParseFloat.
func Float64[F ~float64](l *Lexer, v *F) error {
	return parseFloat(l, v, 64)
}

// Float32 decodes a number into v with strconv.ParseFloat at 32 bits.
func Float32[F ~float32](l *Lexer, v *F) error {
	return parseFloat(l, v, 32)
}

func parseFloat[F ~float32 | ~float64](l *Lexer, v *F, bits int) error {
	tok, isNull := l.numberToken()
	if isNull {
		return nil
	}
	if tok == nil {
		return ErrMismatch
	}
	f, err := strconv.ParseFloat(string(tok), bits)
	if err != nil {
		return ErrMismatch
	}
	*v = F(f)
	return nil
}

func parseUint(tok []byte) (uint64, bool) {
	if len(tok) == 0 || len(tok) > 20 {
		return 0, false
	}
	var n uint64
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (1<<64-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

func parseInt(tok []byte) (int64, bool) {
	neg := len(tok) > 0 && tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	u, ok := parseUint(tok)
	if !ok {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u >= 1<<63 {
		return 0, false
	}
	return int64(u), true
}

// Bytes decodes a base64 string into v as encoding/json does for []byte;
// null sets v to nil. Arrays of numbers, which the reference also takes,
// are left to it.
func Bytes[B ~[]byte](l *Lexer, v *B) error {
	switch l.Next() {
	case '"':
		s := l.str()
		b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, err := base64.StdEncoding.Decode(b, s)
		if err != nil {
			return ErrMismatch
		}
		*v = B(b[:n])
		return nil
	case 'n':
		l.SkipNull()
		*v = nil
		return nil
	}
	return ErrMismatch
}
