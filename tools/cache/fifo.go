package cache

import (
	"sync"
)

// FIFO is a Queue whose accumulator is simply the latest object: repeated
// writes of a key that is still queued coalesce, and the consumer sees the
// newest version once. Deleting an object drops it from the queue; Resync
// does nothing. Compare DeltaFIFO, which keeps every change.
type FIFO struct {
	// lock guards all fields below; cond signals new items and Close.
	lock  sync.RWMutex
	cond  sync.Cond
	items map[string]interface{}
	queue []string

	sync    *initialSync
	keyFunc KeyFunc
	closed  bool
}

var _ Queue = &FIFO{}

// NewFIFO returns an empty FIFO.
func NewFIFO(keyFunc KeyFunc) *FIFO {
	f := &FIFO{items: map[string]interface{}{}, keyFunc: keyFunc, sync: newInitialSync("FIFO")}
	f.cond.L = &f.lock
	return f
}

// Name returns the queue's name.
func (f *FIFO) Name() string { return f.sync.Name() }

// Done is closed once HasSynced becomes true.
func (f *FIFO) Done() <-chan struct{} { return f.sync.Done() }

// HasSynced reports whether the initial batch has been popped.
func (f *FIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.sync.synced()
}

// HasSyncedChecker returns a DoneChecker for HasSynced.
func (f *FIFO) HasSyncedChecker() DoneChecker { return f.sync }

// Add queues obj, or replaces the queued version of its key.
func (f *FIFO) Add(obj interface{}) error {
	key, err := f.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	if _, queued := f.items[key]; !queued {
		f.queue = append(f.queue, key)
	}
	f.items[key] = obj
	f.cond.Broadcast()
	return nil
}

// Update is the same as Add.
func (f *FIFO) Update(obj interface{}) error { return f.Add(obj) }

// Delete drops obj's key from the queue.
func (f *FIFO) Delete(obj interface{}) error {
	key, err := f.keyFunc(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(0)
	delete(f.items, key)
	return nil
}

// IsClosed reports whether Close was called.
func (f *FIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// Close wakes blocked Pop calls, which then return ErrFIFOClosed.
func (f *FIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// Pop waits for an item, removes it and processes it under the queue's
// lock, so process may safely update state that must stay in step with the
// queue.
func (f *FIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		key := f.queue[0]
		f.queue[0] = ""
		f.queue = f.queue[1:]
		inInitial := !f.sync.synced()
		f.sync.popped()
		item, ok := f.items[key]
		if !ok {
			// Deleted while queued.
			f.sync.signalIfSynced()
			continue
		}
		delete(f.items, key)
		err := process(item, inInitial)
		f.sync.signalIfSynced()
		return item, err
	}
}

// Replace discards the queue and queues the given objects instead.
func (f *FIFO) Replace(list []interface{}, resourceVersion string) error {
	items := make(map[string]interface{}, len(list))
	for _, item := range list {
		key, err := f.keyFunc(item)
		if err != nil {
			return KeyError{item, err}
		}
		items[key] = item
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(len(items))
	f.items = items
	f.queue = f.queue[:0]
	for key := range items {
		f.queue = append(f.queue, key)
	}
	if len(f.queue) > 0 {
		f.cond.Broadcast()
	}
	return nil
}

// Resync makes sure every stored object is queued, which FIFO maintains
// anyway.
func (f *FIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	queued := make(map[string]struct{}, len(f.queue))
	for _, key := range f.queue {
		queued[key] = struct{}{}
	}
	for key := range f.items {
		if _, ok := queued[key]; !ok {
			f.queue = append(f.queue, key)
		}
	}
	if len(f.queue) > 0 {
		f.cond.Broadcast()
	}
	return nil
}
