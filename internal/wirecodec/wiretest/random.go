package wiretest

import (
	"math/rand"
	"strings"
)

// The differential tests of the wire decoders compare the fast paths with
// the reference decoders on random documents built here and on mutations
// of them.

// RandomJSON returns a random well-formed JSON value of at most depth
// levels, with random whitespace, escapes, non-ASCII and invalid UTF-8 in
// strings, and numbers of every shape.
func RandomJSON(r *rand.Rand, depth int) string {
	var b strings.Builder
	writeRandomValue(r, &b, depth)
	return b.String()
}

func writeSpace(r *rand.Rand, b *strings.Builder) {
	if r.Intn(4) == 0 {
		b.WriteString([]string{" ", "\n", "\t", "\r\n  "}[r.Intn(4)])
	}
}

func writeRandomValue(r *rand.Rand, b *strings.Builder, depth int) {
	writeSpace(r, b)
	switch k := r.Intn(10); {
	case k < 2 && depth > 0:
		b.WriteByte('{')
		for i, n := 0, r.Intn(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			writeSpace(r, b)
			b.WriteString(RandomString(r))
			writeSpace(r, b)
			b.WriteByte(':')
			writeRandomValue(r, b, depth-1)
		}
		writeSpace(r, b)
		b.WriteByte('}')
	case k < 4 && depth > 0:
		b.WriteByte('[')
		for i, n := 0, r.Intn(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			writeRandomValue(r, b, depth-1)
		}
		writeSpace(r, b)
		b.WriteByte(']')
	case k < 6:
		b.WriteString(RandomString(r))
	case k < 8:
		b.WriteString(randomNumber(r))
	default:
		b.WriteString([]string{"true", "false", "null"}[r.Intn(3)])
	}
	writeSpace(r, b)
}

var stringParts = []string{
	"a", "kind", "apiVersion", "type", "object", "Kind", "APIVERSION", "\u212aind", "v1", "Pod", "x/y",
	`\"`, `\\`, `\/`, `\n`, `\u0041`, `\u00e9`, `\ud83d\ude00`, `\ud800`, "é", "\xff", "\xc3", "日本", " ",
}

// RandomString returns a random JSON string literal.
func RandomString(r *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, n := 0, r.Intn(4); i < n; i++ {
		b.WriteString(stringParts[r.Intn(len(stringParts))])
	}
	b.WriteByte('"')
	return b.String()
}

var numbers = []string{
	"0", "-0", "1", "-1", "42", "0.5", "-0.25e10", "1E+2", "3e-7", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "-9223372036854775809", "18446744073709551616", "1.0", "1e400", "123456789012345678901234567890",
	"4.9e-324", "2.5e-400", "100", "1.5E3",
}

func randomNumber(r *rand.Rand) string { return numbers[r.Intn(len(numbers))] }

// Mutate returns s with a few random edits: bytes replaced, inserted or
// removed, or the end cut off.
func Mutate(r *rand.Rand, s string) string {
	b := []byte(s)
	const alphabet = "{}[],:\"\\ -+.0123456789eEtrufalsn\x00\x1f\xff"
	for i, n := 0, 1+r.Intn(3); i < n && len(b) > 0; i++ {
		at := r.Intn(len(b))
		switch r.Intn(4) {
		case 0:
			b[at] = alphabet[r.Intn(len(alphabet))]
		case 1:
			b = append(b[:at], append([]byte{alphabet[r.Intn(len(alphabet))]}, b[at:]...)...)
		case 2:
			b = append(b[:at], b[at+1:]...)
		default:
			b = b[:at]
		}
	}
	return string(b)
}
