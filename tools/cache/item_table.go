package cache

import (
	"unsafe"
)

// itemTable maps storage keys to objects using less memory than a
// map[string]interface{}.
//
// A cache almost always holds objects of a single dynamic type (say
// *v1.Pod). An interface value is two words, type and data; itemTable
// stores the type word once and only the data word per item, which saves
// eight bytes per map slot. Items of any other type go to a plain map.
// The caller provides locking.
type itemTable struct {
	// typ is the type word shared by the items in same; nil until the
	// first insert.
	typ   unsafe.Pointer
	same  map[string]unsafe.Pointer
	other map[string]interface{}
}

// eface mirrors the runtime layout of an empty interface value.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

func newItemTable(sizeHint int) itemTable {
	return itemTable{same: make(map[string]unsafe.Pointer, sizeHint)}
}

func split(obj interface{}) eface {
	return *(*eface)(unsafe.Pointer(&obj))
}

func (t *itemTable) join(data unsafe.Pointer) interface{} {
	var obj interface{}
	*(*eface)(unsafe.Pointer(&obj)) = eface{typ: t.typ, data: data}
	return obj
}

func (t *itemTable) len() int { return len(t.same) + len(t.other) }

func (t *itemTable) get(key string) (interface{}, bool) {
	if data, ok := t.same[key]; ok {
		return t.join(data), true
	}
	obj, ok := t.other[key]
	return obj, ok
}

// set stores obj under key and returns the previous object, if any.
func (t *itemTable) set(key string, obj interface{}) interface{} {
	old, _ := t.get(key)
	w := split(obj)
	if t.typ == nil && w.typ != nil {
		t.typ = w.typ
	}
	if w.typ == t.typ && w.typ != nil {
		if _, ok := t.other[key]; ok {
			delete(t.other, key)
		}
		t.same[key] = w.data
		return old
	}
	if _, ok := t.same[key]; ok {
		delete(t.same, key)
	}
	if t.other == nil {
		t.other = map[string]interface{}{}
	}
	t.other[key] = obj
	return old
}

func (t *itemTable) delete(key string) {
	delete(t.same, key)
	if t.other != nil {
		delete(t.other, key)
	}
}

// each calls fn for every item until fn returns false.
func (t *itemTable) each(fn func(key string, obj interface{}) bool) {
	for key, data := range t.same {
		if !fn(key, t.join(data)) {
			return
		}
	}
	for key, obj := range t.other {
		if !fn(key, obj) {
			return
		}
	}
}
