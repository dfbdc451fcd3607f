package cache

import (
	"container/heap"
	"fmt"
	"sync"
)

// LessFunc orders two objects in a Heap.
type LessFunc func(interface{}, interface{}) bool

// heapItem is an object with its position in the heap's array.
type heapItem struct {
	obj   interface{}
	index int
}

// heapData implements heap.Interface; Heap's lock guards it.
type heapData struct {
	items    map[string]*heapItem
	queue    []string
	keyFunc  KeyFunc
	lessFunc LessFunc
}

func (h *heapData) Len() int { return len(h.queue) }
func (h *heapData) Less(i, j int) bool {
	return h.lessFunc(h.items[h.queue[i]].obj, h.items[h.queue[j]].obj)
}
func (h *heapData) Swap(i, j int) {
	h.queue[i], h.queue[j] = h.queue[j], h.queue[i]
	h.items[h.queue[i]].index = i
	h.items[h.queue[j]].index = j
}

// Push is called by container/heap with a *heapKeyed value.
func (h *heapData) Push(x interface{}) {
	kv := x.(heapKeyed)
	h.items[kv.key] = &heapItem{obj: kv.obj, index: len(h.queue)}
	h.queue = append(h.queue, kv.key)
}

// Pop is called by container/heap; it returns the removed object.
func (h *heapData) Pop() interface{} {
	n := len(h.queue) - 1
	key := h.queue[n]
	h.queue = h.queue[:n]
	item := h.items[key]
	delete(h.items, key)
	return item.obj
}

type heapKeyed struct {
	key string
	obj interface{}
}

// Heap is a priority queue safe for concurrent producers and consumers: Pop returns the
// least item according to the LessFunc. Items are unique by key.
type Heap struct {
	// lock guards data and closed; cond signals new items and Close.
	lock   sync.RWMutex
	cond   sync.Cond
	data   *heapData
	closed bool
}

// NewHeap returns an empty Heap.
func NewHeap(keyFn KeyFunc, lessFn LessFunc) *Heap {
	h := &Heap{data: &heapData{items: map[string]*heapItem{}, keyFunc: keyFn, lessFunc: lessFn}}
	h.cond.L = &h.lock
	return h
}

// Close wakes blocked Pop calls, which then return an error.
func (h *Heap) Close() {
	h.lock.Lock()
	defer h.lock.Unlock()
	h.closed = true
	h.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (h *Heap) IsClosed() bool {
	h.lock.RLock()
	defer h.lock.RUnlock()
	return h.closed
}

// Add inserts obj, or replaces and repositions the item with its key.
func (h *Heap) Add(obj interface{}) error {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return fmt.Errorf("heap is closed")
	}
	h.addLocked(key, obj)
	h.cond.Broadcast()
	return nil
}

func (h *Heap) addLocked(key string, obj interface{}) {
	if item, exists := h.data.items[key]; exists {
		item.obj = obj
		heap.Fix(h.data, item.index)
		return
	}
	heap.Push(h.data, heapKeyed{key, obj})
}

// BulkAdd adds every object of list and then wakes consumers once.
func (h *Heap) BulkAdd(list []interface{}) error {
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return fmt.Errorf("heap is closed")
	}
	for _, obj := range list {
		key, err := h.data.keyFunc(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		h.addLocked(key, obj)
	}
	h.cond.Broadcast()
	return nil
}

// AddIfNotPresent inserts obj unless an item with its key exists. It lets a
// consumer requeue an item without overwriting a newer one.
func (h *Heap) AddIfNotPresent(obj interface{}) error {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return fmt.Errorf("heap is closed")
	}
	if _, exists := h.data.items[key]; !exists {
		heap.Push(h.data, heapKeyed{key, obj})
		h.cond.Broadcast()
	}
	return nil
}

// Update is the same as Add.
func (h *Heap) Update(obj interface{}) error { return h.Add(obj) }

// Delete removes the item with obj's key.
func (h *Heap) Delete(obj interface{}) error {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	if item, ok := h.data.items[key]; ok {
		heap.Remove(h.data, item.index)
		return nil
	}
	return fmt.Errorf("object not found")
}

// Pop waits for an item and removes and returns the least one.
func (h *Heap) Pop() (interface{}, error) {
	h.lock.Lock()
	defer h.lock.Unlock()
	for len(h.data.queue) == 0 {
		if h.closed {
			return nil, fmt.Errorf("heap is closed")
		}
		h.cond.Wait()
	}
	obj := heap.Pop(h.data)
	if obj == nil {
		return nil, fmt.Errorf("object was removed from heap data")
	}
	return obj, nil
}

// List returns every item.
func (h *Heap) List() []interface{} {
	h.lock.RLock()
	defer h.lock.RUnlock()
	list := make([]interface{}, 0, len(h.data.items))
	for _, item := range h.data.items {
		list = append(list, item.obj)
	}
	return list
}

// ListKeys returns every key.
func (h *Heap) ListKeys() []string {
	h.lock.RLock()
	defer h.lock.RUnlock()
	list := make([]string, 0, len(h.data.items))
	for key := range h.data.items {
		list = append(list, key)
	}
	return list
}

// Get returns the item with obj's key.
func (h *Heap) Get(obj interface{}) (interface{}, bool, error) {
	key, err := h.data.keyFunc(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return h.GetByKey(key)
}

// GetByKey returns the item with key.
func (h *Heap) GetByKey(key string) (interface{}, bool, error) {
	h.lock.RLock()
	defer h.lock.RUnlock()
	item, exists := h.data.items[key]
	if !exists {
		return nil, false, nil
	}
	return item.obj, true, nil
}
