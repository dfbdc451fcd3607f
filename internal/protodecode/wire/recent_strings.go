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
type recentStrings [1 << recentBits]string

const (
	// recentBits sizes recentStrings: 1024 slots, 16 KiB.
	recentBits = 10
	// minRecentMessage is the smallest message whose decode keeps recent
	// strings: a list or a page of one, not a single object, for which
	// the slots would cost more than they save.
	minRecentMessage = 64 << 10
)

// fromBytes returns t.FromBytes(b), from c when c holds it. The slot is
// chosen by a hash of b's length and first and last bytes, a few
// instructions where t's hash reads every byte: strings that share them
// take turns in a slot, and cost a lookup in t each time.
func (c *recentStrings) fromBytes(t *intern.Strings, b []byte) string {
	slot := &c[recentSlot(b)]
	if *slot == string(b) && len(b) > 0 {
		return *slot
	}
	v := t.FromBytes(b)
	if len(v) > 0 && len(v) <= maxRecentString {
		*slot = v
	}
	return v
}

// maxRecentString is the longest string kept in a recentStrings: longer
// ones are rarely repeated, and comparing them costs more.
const maxRecentString = 64

// recentSlot returns the slot of b in a recentStrings.
func recentSlot(b []byte) uint64 {
	n := len(b)
	var x uint64
	switch {
	case n >= 8:
		x = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 31)
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	case n > 0:
		x = uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
	}
	x = (x ^ uint64(n)) * 0x9e3779b97f4a7c15
	return x >> (64 - recentBits)
}
