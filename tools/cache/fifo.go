package cache

import (
	"sync"
)

// FIFO is a Queue whose accumulator is simply the latest object: repeated
// writes of a key that is still queued coalesce, and the consumer sees the
// newest version once. Deleting an object drops it from the queue; Resync
// does nothing. Compare DeltaFIFO, which keeps every change.
type FIFO struct {
	// lock guards all fields below; cond signals new keys and Close.
	lock sync.RWMutex
	cond sync.Cond
	// latest holds the newest object of every queued key. order lists the
	// queued keys, oldest first; a key deleted while queued stays in
	// order without an entry in latest and is skipped by Pop.
	latest map[string]interface{}
	order  []string

	sync    *initialSync
	keyFunc KeyFunc
	closed  bool
}

var _ Queue = &FIFO{}

// NewFIFO returns an empty FIFO.
func NewFIFO(keyFunc KeyFunc) *FIFO {
	f := &FIFO{latest: map[string]interface{}{}, keyFunc: keyFunc, sync: newInitialSync("FIFO")}
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
	f.putLocked(key, obj)
	f.cond.Broadcast()
	return nil
}

// putLocked makes obj the newest object of key, queueing key if needed.
func (f *FIFO) putLocked(key string, obj interface{}) {
	if _, queued := f.latest[key]; !queued {
		f.order = append(f.order, key)
	}
	f.latest[key] = obj
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
	delete(f.latest, key)
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
	obj, inInitial, err := f.takeLocked()
	if err != nil {
		return nil, err
	}
	defer f.sync.signalIfSynced()
	return obj, process(obj, inInitial)
}

// takeLocked waits for the oldest key that still has an object and
// removes it from the queue.
func (f *FIFO) takeLocked() (obj interface{}, inInitial bool, err error) {
	for {
		if len(f.order) == 0 {
			if f.closed {
				return nil, false, ErrFIFOClosed
			}
			f.cond.Wait()
			continue
		}
		key := f.order[0]
		f.order[0] = ""
		f.order = f.order[1:]
		inInitial = !f.sync.synced()
		f.sync.popped()
		if obj, ok := f.latest[key]; ok {
			delete(f.latest, key)
			return obj, inInitial, nil
		}
		// Deleted while queued: counts as handled.
		f.sync.signalIfSynced()
	}
}

// Replace discards the queue and queues the given objects instead, in
// list order.
func (f *FIFO) Replace(list []interface{}, resourceVersion string) error {
	latest := make(map[string]interface{}, len(list))
	order := make([]string, 0, len(list))
	for _, obj := range list {
		key, err := f.keyFunc(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		if _, dup := latest[key]; !dup {
			order = append(order, key)
		}
		latest[key] = obj
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.sync.markPopulated(len(order))
	f.latest, f.order = latest, order
	f.cond.Broadcast()
	return nil
}

// Resync makes sure every stored object is queued, which FIFO maintains
// anyway.
func (f *FIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	inOrder := make(map[string]bool, len(f.order))
	for _, key := range f.order {
		inOrder[key] = true
	}
	for key := range f.latest {
		if !inOrder[key] {
			f.order = append(f.order, key)
		}
	}
	f.cond.Broadcast()
	return nil
}
