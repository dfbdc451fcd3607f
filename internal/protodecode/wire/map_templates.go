package wire

import (
	"bytes"
	"hash/maphash"
	"maps"

	"k8s.io/apimachinery/pkg/api/resource"
)

// mapTemplates holds, for the decode of a large message, maps decoded
// before, one per slot by the wire bytes of their entries: the resource
// lists of the containers of one owner's objects repeat, and a list met
// again is a clone of the one decoded first (maps.Clone copies its
// memory) instead of its entries parsed and inserted one by one. Each
// object still gets a map of its own, equal to the one the reference
// decodes. A template is a clone nobody else holds, taken as soon as its
// entries are decoded, so that entries merged later into the first map
// (a map field named again) do not reach it. A mapTemplates lives for one
// decode and is owned by the goroutine decoding (see slab).
type mapTemplates [1 << mapTemplateBits]mapTemplate

type mapTemplate struct {
	key []byte // the entries on the wire; aliases the message
	m   any    // the map, a M of templated
}

const (
	// mapTemplateBits sizes mapTemplates: 256 slots, so that the few
	// distinct lists of a decode seldom share one, whatever the seed.
	mapTemplateBits = 8
	// maxTemplateWire bounds the maps kept: labels and resource lists are
	// a few hundred bytes at most.
	maxTemplateWire = 1 << 10
)

var mapTemplateSeed = maphash.MakeSeed()

// templated decodes into *m, nil, all the entries of the run of map field
// num whose first key was just read, with entry (for one entry, given
// d), and
// reports whether it did: it does not, and has read nothing, where maps
// are not templated (a small message, a decode that shares, a Secret's)
// or the run is too long. *m is a clone of the map decoded before from
// the same bytes when the decode has one; else it is decoded, and kept
// as a template when safe (safe reports whether a map's values may be
// copied as they are) and when its entries depend on their own bytes
// alone (the reference reads an entry's key and value up to the end of
// the enclosing message).
func templated[M ~map[K]V, K comparable, V, D any](r *Reader, num int32, m *M, entry func(*Reader, int, *M, D) error, d D, safe func(M) bool) (bool, error) {
	if r.share != nil || r.plain || r.slab == nil || r.slab.maps == nil {
		return false, nil
	}
	start := r.key
	end, n := r.runEnd(num)
	if n == 0 || end-start > maxTemplateWire {
		return false, nil
	}
	key := r.b[start:end]
	slot := &r.slab.maps[maphash.Bytes(mapTemplateSeed, key)>>(64-mapTemplateBits)]
	if held, ok := slot.m.(M); ok && bytes.Equal(slot.key, key) {
		*m = maps.Clone(held)
		r.i = end
		return true, nil
	}
	*m = make(M, n)
	for i := range n {
		if i > 0 {
			// runEnd counted n fields numbered num whose key and
			// length parse.
			if _, _, err := r.Key(); err != nil {
				return true, err
			}
		}
		if err := entry(r, wireBytes, m, d); err != nil {
			return true, err
		}
	}
	if safe(*m) && entriesBounded(key) && !bytes.Contains(key, lastAppliedKey) {
		slot.key, slot.m = key, maps.Clone(*m)
	}
	return true, nil
}

// quantitiesSafe reports whether m's quantities hold no inf.Dec, which a
// copy would share (see pointerFree); values of other types are not.
func quantitiesSafe[M ~map[K]V, K comparable, V any](m M) bool {
	for _, v := range m {
		q, ok := any(&v).(*resource.Quantity)
		if !ok || !pointerFree(q) {
			return false
		}
	}
	return true
}
