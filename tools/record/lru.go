package record

import "container/list"

// lruCache is a fixed-size least-recently-used map. It is not safe for
// concurrent use; its owners guard it with their own locks.
type lruCache[V any] struct {
	capacity int
	order    *list.List // front = most recently used; values are *lruEntry[V]
	items    map[string]*list.Element
}

type lruEntry[V any] struct {
	key   string
	value V
}

func newLRUCache[V any](capacity int) *lruCache[V] {
	if capacity <= 0 {
		capacity = maxLruCacheEntries
	}
	return &lruCache[V]{capacity: capacity, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the value under key and marks it recently used.
func (c *lruCache[V]) Get(key string) (V, bool) {
	if el, ok := c.items[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*lruEntry[V]).value, true
	}
	var zero V
	return zero, false
}

// Add stores value under key, evicting the least recently used entry when
// the cache is full.
func (c *lruCache[V]) Add(key string, value V) {
	if el, ok := c.items[key]; ok {
		el.Value.(*lruEntry[V]).value = value
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, value: value})
	if c.order.Len() > c.capacity {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*lruEntry[V]).key)
	}
}

// Len returns the number of entries.
func (c *lruCache[V]) Len() int { return c.order.Len() }
