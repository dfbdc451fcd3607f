package cache

// itemTable maps storage keys to cached objects. It is a plain map behind
// the few operations the thread-safe store needs; the caller provides
// locking.
type itemTable map[string]interface{}

func newItemTable(sizeHint int) itemTable { return make(itemTable, sizeHint) }

func (t itemTable) len() int { return len(t) }

func (t itemTable) get(key string) (interface{}, bool) {
	obj, ok := t[key]
	return obj, ok
}

// set stores obj under key and returns the previous object, if any.
func (t itemTable) set(key string, obj interface{}) interface{} {
	old := t[key]
	t[key] = obj
	return old
}

func (t itemTable) delete(key string) { delete(t, key) }

// each calls fn for every item until fn returns false.
func (t itemTable) each(fn func(key string, obj interface{}) bool) {
	for key, obj := range t {
		if !fn(key, obj) {
			return
		}
	}
}
