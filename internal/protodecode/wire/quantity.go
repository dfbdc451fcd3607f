package wire

import (
	"hash/maphash"
	"reflect"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/resource"
)

// quantityEntry is one parsed quantity and the string it was parsed from.
type quantityEntry struct {
	s string
	q resource.Quantity
}

// quantityCache holds recently parsed quantities in a fixed number of
// slots, one entry each, replaced on collision. Only quantities holding no
// pointer are kept, so copies share nothing but their string.
var quantityCache struct {
	seed  maphash.Seed
	slots [512]atomic.Pointer[quantityEntry]
}

func init() { quantityCache.seed = maphash.MakeSeed() }

// parseQuantity parses s as resource.ParseQuantity does, through the cache.
func parseQuantity(b []byte) (resource.Quantity, error) {
	slot := &quantityCache.slots[maphash.Bytes(quantityCache.seed, b)%uint64(len(quantityCache.slots))]
	if e := slot.Load(); e != nil && e.s == string(b) {
		return e.q, nil
	}
	s := string(b)
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, err
	}
	if pointerFree(&q) {
		slot.Store(&quantityEntry{s: s, q: q})
	}
	return q, nil
}

// pointerFree reports whether q holds no inf.Dec (the only pointer a
// Quantity can hold besides its string).
func pointerFree(q *resource.Quantity) bool {
	v := reflect.ValueOf(q).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() == reflect.Struct {
			for j := 0; j < f.NumField(); j++ {
				if g := f.Field(j); g.Kind() == reflect.Pointer && !g.IsNil() {
					return false
				}
			}
		}
	}
	return true
}

// Quantity decodes a resource.Quantity as its Unmarshal does: each string
// field (1) replaces the whole value; other fields are skipped.
func Quantity(r Reader, v *resource.Quantity) error {
	for r.More() {
		num, typ, err := r.Key()
		if err != nil {
			return err
		}
		if num != 1 {
			if err := r.Skip(); err != nil {
				return err
			}
			continue
		}
		s, err := r.Bytes(typ)
		if err != nil {
			return err
		}
		q, err := parseQuantity(s)
		if err != nil {
			return ErrFallback
		}
		*v = q
	}
	return nil
}
