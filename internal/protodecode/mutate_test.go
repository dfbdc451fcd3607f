package protodecode

import "math/rand"

// mutations returns corrupted variants of a valid message: truncations,
// flipped and replaced bytes, inserted varint continuation bytes, and
// deleted or duplicated ranges.
func mutations(r *rand.Rand, data []byte) [][]byte {
	if len(data) == 0 {
		return [][]byte{{0x00}, {0x08}, {0x0a, 0x05}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}}
	}
	var out [][]byte
	clone := func() []byte { return append([]byte(nil), data...) }
	for k := 0; k < 12; k++ {
		b := clone()
		i := r.Intn(len(b))
		switch k % 6 {
		case 0:
			b = b[:i]
		case 1:
			b[i] ^= byte(1 << r.Intn(8))
		case 2:
			b[i] = []byte{0x00, 0x80, 0xff, 0x7f, 0x04, 0x0b, 0x0c, 0x06, 0x07}[r.Intn(9)]
		case 3:
			b = append(b[:i:i], append([]byte{0x80 | byte(r.Intn(128))}, data[i:]...)...)
		case 4:
			j := i + r.Intn(len(b)-i+1)
			b = append(b[:i:i], data[j:]...)
		case 5:
			j := i + r.Intn(len(b)-i+1)
			b = append(append(b[:j:j], data[i:j]...), data[j:]...)
		}
		out = append(out, b)
	}
	return out
}
