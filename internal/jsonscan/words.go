package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// The string loops look at eight bytes at a time: a word with none of the
// bytes they stop at is skipped whole (the "has zero byte" bit trick
// applied to the word xor the byte sought).

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// hasByte returns a word whose high bits mark bytes of w equal to c; marks
// after the first true one may be spurious, the first is exact.
func hasByte(w uint64, c byte) uint64 {
	x := w ^ (ones * uint64(c))
	return (x - ones) &^ x & highs
}

// hasLess marks bytes of w below n (n <= 128), with the same caveat.
func hasLess(w uint64, n byte) uint64 {
	return (w - ones*uint64(n)) &^ w & highs
}

// plainLen returns how many bytes from d[i:] contain no quote, backslash
// or byte >= 0x80: the run a reader of checked text takes as it stands.
func plainLen(d []byte, i int) int {
	start := i
	for i+8 <= len(d) {
		w := binary.LittleEndian.Uint64(d[i:])
		if m := hasByte(w, '"') | hasByte(w, '\\') | (w & highs); m != 0 {
			return i + bits.TrailingZeros64(m)/8 - start
		}
		i += 8
	}
	for i < len(d) {
		c := d[i]
		if c == '"' || c == '\\' || c >= 0x80 {
			break
		}
		i++
	}
	return i - start
}

// validLen returns how many bytes from d[i:] contain no quote, backslash
// or control character: the run of a string the checker accepts without
// looking closer, and the Scanner passes over.
func validLen(d []byte, i int) int {
	start := i
	for i+8 <= len(d) {
		w := binary.LittleEndian.Uint64(d[i:])
		if m := hasByte(w, '"') | hasByte(w, '\\') | hasLess(w, 0x20); m != 0 {
			return i + bits.TrailingZeros64(m)/8 - start
		}
		i += 8
	}
	for i < len(d) {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	return i - start
}

// asciiLen returns how many bytes from d[i:] contain no quote, backslash,
// control character or byte >= 0x80: the run of a string that is its own
// value and needs no closer look.
func asciiLen(d []byte, i int) int {
	start := i
	for i+8 <= len(d) {
		w := binary.LittleEndian.Uint64(d[i:])
		if m := hasByte(w, '"') | hasByte(w, '\\') | hasLess(w, 0x20) | (w & highs); m != 0 {
			return i + bits.TrailingZeros64(m)/8 - start
		}
		i += 8
	}
	for i < len(d) {
		c := d[i]
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		i++
	}
	return i - start
}
