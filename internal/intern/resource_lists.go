package intern

import (
	"hash/maphash"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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
	}, resourceListsEqual)
}

// resourceListsEqual is reflect.DeepEqual for resource lists, without its
// allocations in the common case.
func resourceListsEqual(a, b corev1.ResourceList) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	if reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() {
		return true
	}
	for name, qa := range a {
		qb, ok := b[name]
		if !ok || !quantitiesIdentical(&qa, &qb) {
			return false
		}
	}
	return true
}

// quantityLayout holds the indexes of Quantity's fields, read through
// reflection (which may read unexported fields, not write them): the
// int64 amount (value, scale), the arbitrary-precision amount, the cached
// string. ok is false when Quantity is not laid out as expected; then
// quantitiesIdentical falls back to reflect.DeepEqual.
var quantityLayout = func() (l struct {
	i, iValue, iScale, d, s int
	ok                      bool
}) {
	t := reflect.TypeFor[resource.Quantity]()
	field := func(t reflect.Type, name string, kind reflect.Kind) int {
		if f, ok := t.FieldByName(name); ok && len(f.Index) == 1 && f.Type.Kind() == kind {
			return f.Index[0]
		}
		return -1
	}
	l.i, l.d, l.s = field(t, "i", reflect.Struct), field(t, "d", reflect.Struct), field(t, "s", reflect.String)
	if l.i < 0 || l.d < 0 || l.s < 0 || t.Field(l.d).Type.NumField() != 1 || t.Field(l.d).Type.Field(0).Type.Kind() != reflect.Pointer {
		return l
	}
	it := t.Field(l.i).Type
	l.iValue, l.iScale = field(it, "value", reflect.Int64), field(it, "scale", reflect.Int32)
	l.ok = l.iValue >= 0 && l.iScale >= 0 && it.NumField() == 2 && t.NumField() == 4
	return l
}()

// quantitiesIdentical is reflect.DeepEqual(*a, *b).
func quantitiesIdentical(a, b *resource.Quantity) bool {
	l := quantityLayout
	if !l.ok {
		return reflect.DeepEqual(*a, *b)
	}
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	if a.Format != b.Format || va.Field(l.s).String() != vb.Field(l.s).String() {
		return false
	}
	ia, ib := va.Field(l.i), vb.Field(l.i)
	if ia.Field(l.iValue).Int() != ib.Field(l.iValue).Int() || ia.Field(l.iScale).Int() != ib.Field(l.iScale).Int() {
		return false
	}
	da, db := va.Field(l.d).Field(0), vb.Field(l.d).Field(0)
	if da.IsNil() && db.IsNil() {
		return true
	}
	return reflect.DeepEqual(*a, *b)
}
