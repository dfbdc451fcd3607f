package cache

import (
	"errors"
	"sync"
)

// LessFunc orders two objects in a Heap.
type LessFunc func(interface{}, interface{}) bool

var (
	errHeapClosed     = errors.New("heap is closed")
	errHeapNotPresent = errors.New("object not found")
)

// keyedObject is one element of a Heap.
type keyedObject struct {
	key string
	obj interface{}
}

// Heap is a priority queue safe for concurrent producers and consumers: Pop
// returns the least item according to the LessFunc. Items are unique by
// key; adding an object whose key is queued replaces that item.
//
// It is a binary min-heap in a slice (the least element at index 0, the
// children of i at 2i+1 and 2i+2) plus a map from key to slice position.
type Heap struct {
	keyOf KeyFunc
	less  LessFunc

	// lock guards elems, position and closed; nonEmpty, on lock, wakes Pop
	// calls when an item arrives or the heap closes.
	lock     sync.RWMutex
	nonEmpty sync.Cond
	elems    []keyedObject
	position map[string]int
	closed   bool
}

// NewHeap returns an empty Heap.
func NewHeap(keyFn KeyFunc, lessFn LessFunc) *Heap {
	h := &Heap{keyOf: keyFn, less: lessFn, position: map[string]int{}}
	h.nonEmpty.L = &h.lock
	return h
}

// Close wakes blocked Pop calls, which then return an error.
func (h *Heap) Close() {
	h.lock.Lock()
	defer h.lock.Unlock()
	h.closed = true
	h.nonEmpty.Broadcast()
}

// IsClosed reports whether Close was called.
func (h *Heap) IsClosed() bool {
	h.lock.RLock()
	defer h.lock.RUnlock()
	return h.closed
}

// Add inserts obj, or replaces and repositions the item with its key.
func (h *Heap) Add(obj interface{}) error { return h.addOne(obj, true) }

// AddIfNotPresent inserts obj unless an item with its key exists. It lets a
// consumer requeue an item without overwriting a newer one.
func (h *Heap) AddIfNotPresent(obj interface{}) error { return h.addOne(obj, false) }

// Update is the same as Add.
func (h *Heap) Update(obj interface{}) error { return h.Add(obj) }

// BulkAdd adds every object of list and then wakes consumers once. It stops
// at the first object without a key; the objects before it stay added.
func (h *Heap) BulkAdd(list []interface{}) error {
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return errHeapClosed
	}
	defer h.nonEmpty.Broadcast()
	for _, obj := range list {
		key, err := h.keyOf(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		h.insertLocked(key, obj, true)
	}
	return nil
}

// addOne adds obj; replace says whether it replaces a queued item with its
// key or leaves that item alone.
func (h *Heap) addOne(obj interface{}, replace bool) error {
	key, err := h.keyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	if h.closed {
		return errHeapClosed
	}
	h.insertLocked(key, obj, replace)
	h.nonEmpty.Broadcast()
	return nil
}

// insertLocked queues obj under key; the caller holds the write lock.
func (h *Heap) insertLocked(key string, obj interface{}, replace bool) {
	i, queued := h.position[key]
	switch {
	case !queued:
		h.elems = append(h.elems, keyedObject{key: key, obj: obj})
		h.position[key] = len(h.elems) - 1
		h.siftUp(len(h.elems) - 1)
	case replace:
		h.elems[i].obj = obj
		h.restore(i)
	}
}

// Delete removes the item with obj's key.
func (h *Heap) Delete(obj interface{}) error {
	key, err := h.keyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	h.lock.Lock()
	defer h.lock.Unlock()
	i, queued := h.position[key]
	if !queued {
		return errHeapNotPresent
	}
	h.removeAt(i)
	return nil
}

// Pop waits for an item and removes and returns the least one.
func (h *Heap) Pop() (interface{}, error) {
	h.lock.Lock()
	defer h.lock.Unlock()
	for len(h.elems) == 0 {
		if h.closed {
			return nil, errHeapClosed
		}
		h.nonEmpty.Wait()
	}
	return h.removeAt(0), nil
}

// List returns every item.
func (h *Heap) List() []interface{} {
	h.lock.RLock()
	defer h.lock.RUnlock()
	objs := make([]interface{}, len(h.elems))
	for i, e := range h.elems {
		objs[i] = e.obj
	}
	return objs
}

// ListKeys returns every key.
func (h *Heap) ListKeys() []string {
	h.lock.RLock()
	defer h.lock.RUnlock()
	keys := make([]string, len(h.elems))
	for i, e := range h.elems {
		keys[i] = e.key
	}
	return keys
}

// Get returns the item with obj's key.
func (h *Heap) Get(obj interface{}) (interface{}, bool, error) {
	key, err := h.keyOf(obj)
	if err != nil {
		return nil, false, KeyError{obj, err}
	}
	return h.GetByKey(key)
}

// GetByKey returns the item with key.
func (h *Heap) GetByKey(key string) (interface{}, bool, error) {
	h.lock.RLock()
	defer h.lock.RUnlock()
	if i, queued := h.position[key]; queued {
		return h.elems[i].obj, true, nil
	}
	return nil, false, nil
}

// removeAt takes element i out, moving the last element into its place, and
// returns its object. The caller holds the write lock.
func (h *Heap) removeAt(i int) interface{} {
	gone := h.elems[i]
	last := len(h.elems) - 1
	h.place(h.elems[last], i)
	h.elems[last] = keyedObject{}
	h.elems = h.elems[:last]
	delete(h.position, gone.key)
	if i < last {
		h.restore(i)
	}
	return gone.obj
}

// restore moves element i up or down until the heap order holds again.
func (h *Heap) restore(i int) {
	if !h.siftUp(i) {
		h.siftDown(i)
	}
}

// siftUp moves element i towards the root while it is less than its
// parent and reports whether it moved.
func (h *Heap) siftUp(i int) bool {
	start := i
	e := h.elems[i]
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(e.obj, h.elems[parent].obj) {
			break
		}
		h.place(h.elems[parent], i)
		i = parent
	}
	h.place(e, i)
	return i != start
}

// siftDown moves element i towards the leaves while a child is less.
func (h *Heap) siftDown(i int) {
	e := h.elems[i]
	for {
		least := 2*i + 1
		if least >= len(h.elems) {
			break
		}
		if right := least + 1; right < len(h.elems) && h.less(h.elems[right].obj, h.elems[least].obj) {
			least = right
		}
		if !h.less(h.elems[least].obj, e.obj) {
			break
		}
		h.place(h.elems[least], i)
		i = least
	}
	h.place(e, i)
}

// place stores e at index i and records its position.
func (h *Heap) place(e keyedObject, i int) {
	h.elems[i] = e
	h.position[e.key] = i
}
