package intern

import (
	"hash/maphash"
	"reflect"

	corev1 "k8s.io/api/core/v1"
)

// newResourceLists returns a table of resource lists of at most
// maxResourceList entries. Lists are the same when reflect.DeepEqual says
// so, which compares the quantities' exact representation and not only
// their values: sharing never changes what DeepEqual tells of an object.
func newResourceLists(slots int) *Table[corev1.ResourceList] {
	seed := maphash.MakeSeed()
	return NewTable(slots, func(l corev1.ResourceList) (uint64, bool) {
		if len(l) == 0 || len(l) > maxResourceList {
			return 0, false
		}
		// A sum is independent of the map's iteration order.
		var sum uint64
		for name, q := range l {
			h := maphash.String(seed, string(name)) ^ maphash.String(seed, string(q.Format))
			if v, ok := q.AsInt64(); ok {
				h ^= uint64(v) * 0x9e3779b97f4a7c15
			} else {
				h ^= uint64(q.MilliValue())
			}
			sum += h
		}
		return sum, true
	}, func(a, b corev1.ResourceList) bool { return reflect.DeepEqual(a, b) })
}
