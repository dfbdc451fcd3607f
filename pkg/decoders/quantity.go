package decoders

import (
	"hash/maphash"
	"reflect"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Quantity decodes as resource.Quantity.UnmarshalJSON. On success that
// method replaces the whole value with the parse of the raw bytes, so a
// parse depends on those bytes alone and is shared through a bounded
// cache: pods of one workload repeat the same few requests and limits.
// Only quantities without a big-decimal part are cached, so the copies
// share no pointer, only their immutable cached string.
func Quantity(l *Lexer, v *resource.Quantity) error {
	raw := l.Raw()
	if raw[0] == 'n' {
		return v.UnmarshalJSON(raw)
	}
	if q, ok := quantities.get(raw); ok {
		*v = q
		return nil
	}
	if err := v.UnmarshalJSON(raw); err != nil {
		return err
	}
	quantities.put(raw, *v)
	return nil
}

// quantityCache is a direct-mapped table, like package intern's, of parsed
// quantities by the raw JSON value they came from.
type quantityCache struct {
	seed  maphash.Seed
	slots [1024]atomic.Pointer[quantityEntry]
}

type quantityEntry struct {
	raw string
	q   resource.Quantity
}

var quantities = &quantityCache{seed: maphash.MakeSeed()}

const maxQuantityLen = 32

func (c *quantityCache) get(raw []byte) (resource.Quantity, bool) {
	if len(raw) > maxQuantityLen {
		return resource.Quantity{}, false
	}
	e := c.slots[maphash.Bytes(c.seed, raw)%uint64(len(c.slots))].Load()
	if e == nil || e.raw != string(raw) {
		return resource.Quantity{}, false
	}
	return e.q, true
}

func (c *quantityCache) put(raw []byte, q resource.Quantity) {
	if len(raw) > maxQuantityLen || !int64Backed(q) {
		return
	}
	c.slots[maphash.Bytes(c.seed, raw)%uint64(len(c.slots))].Store(&quantityEntry{raw: string(raw), q: q})
}

// int64Backed reports whether q holds no *inf.Dec, the only pointer a
// Quantity has. The field is unexported; reading it through reflection
// happens once per cache miss.
func int64Backed(q resource.Quantity) bool {
	d := reflect.ValueOf(q).FieldByName("d")
	if !d.IsValid() || d.Kind() != reflect.Struct {
		return false
	}
	dec := d.FieldByName("Dec")
	return dec.IsValid() && dec.Kind() == reflect.Pointer && dec.IsNil()
}

// QuantityMap is Map for quantity values (resource lists): the element
// decodes in a local value instead of an escaping buffer. With decode sharing,
// equal resource lists decode to one shared map (see sharedMap).
func QuantityMap[K ~string, M ~map[K]resource.Quantity](l *Lexer, m *M) error {
	return sharedMap(l, m, quantityMap[K, M])
}

// quantityMap decodes a resource list as QuantityMap does, unshared.
func quantityMap[K ~string, M ~map[K]resource.Quantity](l *Lexer, m *M) error {
	if done, err := openMap(l, m); done {
		return err
	}
	mm := *m
	for {
		key, ok := l.Key()
		if !ok {
			return nil
		}
		k := K(l.st.Interner.FromBytes(key))
		var q resource.Quantity
		if err := Quantity(l, &q); err != nil {
			return err
		}
		mm[k] = q
	}
}
