package intern

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// MessageKey names the bytes of an encoded message: two independent
// 64-bit hashes of them, so that two different messages have the same key
// with a probability of about 2^-128 (the table keeps no bytes to compare).
type MessageKey [2]uint64

// reusableSlots bounds the messages a DecodeSharing remembers for reuse:
// about one per object in the informer caches of a large controller, in
// sets of two.
const reusableSlots = 1 << 18

// reusable is the table behind Reusable and KeepReusable: slots of
// entries, allocated on first use.
type reusable struct {
	seeds [2]maphash.Seed
	once  sync.Once
	slots []atomic.Pointer[reusableEntry]
}

type reusableEntry struct {
	key MessageKey
	ref any
}

func newReusable() reusable {
	return reusable{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
}

// MessageKey returns the key of the encoded message b.
func (s *DecodeSharing) MessageKey(b []byte) MessageKey {
	return MessageKey{maphash.Bytes(s.reuse.seeds[0], b), maphash.Bytes(s.reuse.seeds[1], b)}
}

// MessageKeyHash computes a MessageKey over bytes written in pieces: the
// key of their concatenation, as MessageKey gives it.
type MessageKeyHash struct{ h [2]maphash.Hash }

// StartMessageKey readies h to compute a key of s.
func (s *DecodeSharing) StartMessageKey(h *MessageKeyHash) {
	h.h[0].SetSeed(s.reuse.seeds[0])
	h.h[1].SetSeed(s.reuse.seeds[1])
}

// Write adds b to the bytes h keys.
func (h *MessageKeyHash) Write(b []byte) {
	h.h[0].Write(b)
	h.h[1].Write(b)
}

// Key returns the key of the bytes written.
func (h *MessageKeyHash) Key() MessageKey { return MessageKey{h.h[0].Sum64(), h.h[1].Sum64()} }

// Reusable returns what was kept for key k with KeepReusable, if it is
// still there. Entries are evicted as others take their slots.
func (s *DecodeSharing) Reusable(k MessageKey) (any, bool) {
	slots := s.reuse.table()
	set := k[0] & (reusableSlots - 1) &^ 1
	for i := set; i <= set+1; i++ {
		if e := slots[i].Load(); e != nil && e.key == k {
			return e.ref, true
		}
	}
	return nil, false
}

// KeepReusable keeps ref, a reference to the value decoded from the
// message of key k (the decoders keep weak pointers, so the table holds
// no object alive), replacing what was kept for k before.
func (s *DecodeSharing) KeepReusable(k MessageKey, ref any) {
	slots := s.reuse.table()
	set := k[0] & (reusableSlots - 1) &^ 1
	e := &reusableEntry{key: k, ref: ref}
	if held := slots[set+1].Load(); held != nil && held.key == k {
		slots[set+1].Store(e)
		return
	}
	// The newest entry of a set goes first and the one it displaces
	// second, so two keys in use at once can share a set.
	if held := slots[set].Load(); held != nil && held.key != k {
		slots[set+1].Store(held)
	}
	slots[set].Store(e)
}

func (r *reusable) table() []atomic.Pointer[reusableEntry] {
	r.once.Do(func() { r.slots = make([]atomic.Pointer[reusableEntry], reusableSlots) })
	return r.slots
}
