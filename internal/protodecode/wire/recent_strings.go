package wire

import (
	"encoding/binary"
	"math/bits"

	"github.com/kubeclient/client-go/internal/intern"
)

// recentStrings holds, one per slot by hash, the interned strings a
// decode met last. The strings of a list's objects repeat (namespaces,
// label keys, images, node names, condition types, managers): finding
// one here, in a few kilobytes the decode keeps in the processor's cache,
// is cheaper than in the process-wide table, which hashes every byte and
// whose slots and strings, spread over the heap, the processor mostly
// has to fetch from memory. A recentStrings
// holds only strings taken from the process-wide table, lives for one
// decode and is owned by the goroutine decoding (see slab).
type recentStrings [1 << recentBits]recentString

// recentString is a slot of recentStrings: a string and the words of it
// that words returns, which for a string of at most 16 bytes are all of
// its bytes, so that finding it reads nothing outside the slot.
type recentString struct {
	s    string
	a, z uint64
}

const (
	// recentBits sizes recentStrings: 1024 slots, 32 KiB.
	recentBits = 10
	// minRecentMessage is the smallest message whose decode keeps recent
	// strings: a list or a page of one, not a single object, for which
	// the slots would cost more than they save.
	minRecentMessage = 64 << 10
)

// fromBytes returns t.FromBytes(b), from c when c holds it. The slot is
// chosen by b's length and its first and last bytes (see words), a few
// instructions where t's hash reads every byte: strings that share them
// take turns in a slot, and cost a lookup in t each time.
func (c *recentStrings) fromBytes(t *intern.Strings, b []byte) string {
	a, z := words(b)
	n := uint64(len(b))
	slot := &c[(a^bits.RotateLeft64(z, 31)^n)*0x9e3779b97f4a7c15>>(64-recentBits)]
	if len(slot.s) == len(b) && slot.a == a && slot.z == z && len(b) > 0 &&
		(len(b) <= 16 || slot.s == string(b)) {
		return slot.s
	}
	v := t.FromBytes(b)
	if len(v) > 0 && len(v) <= maxRecentString {
		*slot = recentString{s: v, a: a, z: z}
	}
	return v
}

// maxRecentString is the longest string kept in a recentStrings: longer
// ones are rarely repeated, and comparing them costs more.
const maxRecentString = 64

// words returns two words of b that, with its length, are all of b when
// it is at most 16 bytes long: its first and last eight bytes, or four,
// or for the shortest its first, middle and last byte.
func words(b []byte) (a, z uint64) {
	n := len(b)
	switch {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}
