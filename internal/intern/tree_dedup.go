package intern

import (
	"hash/maphash"
	"math"
)

// Managed-fields sets of unstructured objects are trees of maps, often the
// same across the objects of one controller: a Sharer with a Trees table
// shares whole equal trees. Trees holds only JSON-like values (maps,
// slices, strings, numbers, booleans, nil) of at most maxTreeNodes nodes.

const (
	treeSlots    = 1 << 10
	maxTreeNodes = 2048
)

// newTrees returns a table of JSON-like trees. Two trees are the same
// when reflect.DeepEqual would say so; jsonEqual tells that without
// reflection.
func newTrees(slots int) *Table[map[string]interface{}] {
	seed := maphash.MakeSeed()
	return NewTable(slots, func(m map[string]interface{}) (uint64, bool) {
		if m == nil {
			return 0, false
		}
		nodes := 0
		return jsonHash(seed, m, &nodes)
	}, func(a, b map[string]interface{}) bool { return jsonEqual(a, b) })
}

// jsonHash hashes a JSON-like value; ok is false for other values and
// for trees of more than maxTreeNodes nodes.
func jsonHash(seed maphash.Seed, v interface{}, nodes *int) (h uint64, ok bool) {
	const prime = 0x9e3779b97f4a7c15
	if *nodes++; *nodes > maxTreeNodes {
		return 0, false
	}
	switch x := v.(type) {
	case map[string]interface{}:
		// A sum is independent of the map's iteration order.
		h = uint64(len(x)) + 1
		for k, e := range x {
			eh, ok := jsonHash(seed, e, nodes)
			if !ok {
				return 0, false
			}
			h += (maphash.String(seed, k) ^ eh) * prime
		}
		return h, true
	case []interface{}:
		h = uint64(len(x)) + 2
		for _, e := range x {
			eh, ok := jsonHash(seed, e, nodes)
			if !ok {
				return 0, false
			}
			h = h*prime + eh
		}
		return h, true
	case string:
		return maphash.String(seed, x), true
	case int64:
		return uint64(x) * prime, true
	case float64:
		return math.Float64bits(x) * prime, true
	case bool:
		if x {
			return 3, true
		}
		return 4, true
	case nil:
		return 5, true
	}
	return 0, false
}

// jsonEqual is reflect.DeepEqual for JSON-like values: nil and empty maps
// or slices differ, NaN differs from itself.
func jsonEqual(a, b interface{}) bool {
	switch x := a.(type) {
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !jsonEqual(e, f) {
				return false
			}
		}
		return true
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case string, int64, float64, bool, nil:
		return a == b
	}
	return false
}
