package synctrack

import (
	"sync"
)

// doneSignal is a channel closed exactly once when both the upstream has
// synced and no initial-list work is outstanding. Once closed it stays
// closed: a tracker that has synced never becomes unsynced again.
type doneSignal struct {
	once   sync.Once
	ch     chan struct{}
	closed bool
}

func newDoneSignal() doneSignal { return doneSignal{ch: make(chan struct{})} }

func (d *doneSignal) close() {
	d.closed = true
	d.once.Do(func() { close(d.ch) })
}

// AsyncTracker tracks initial-list keys processed by several workers in any
// order. The caller reports the upstream "has synced" transition through
// UpstreamHasSynced.
type AsyncTracker[T comparable] struct {
	name string

	// lock guards waiting and upstreamSynced.
	lock           sync.Mutex
	waiting        map[T]struct{}
	upstreamSynced bool
	done           doneSignal
}

// NewAsyncTracker returns a tracker with the given name.
func NewAsyncTracker[T comparable](name string) *AsyncTracker[T] {
	return &AsyncTracker[T]{name: name, waiting: map[T]struct{}{}, done: newDoneSignal()}
}

// Name returns the tracker's name.
func (t *AsyncTracker[T]) Name() string { return t.name }

// Start records that key from the initial list is about to be processed.
func (t *AsyncTracker[T]) Start(key T) {
	t.lock.Lock()
	defer t.lock.Unlock()
	if t.waiting == nil {
		t.waiting = map[T]struct{}{}
	}
	t.waiting[key] = struct{}{}
}

// Finished records that key is processed. Calling it without a matching
// Start is harmless.
func (t *AsyncTracker[T]) Finished(key T) {
	t.lock.Lock()
	defer t.lock.Unlock()
	delete(t.waiting, key)
	t.maybeDoneLocked()
}

// UpstreamHasSynced tells the tracker that the source has synced. Call it
// after every initial-list key was handed to Start.
func (t *AsyncTracker[T]) UpstreamHasSynced() {
	t.lock.Lock()
	defer t.lock.Unlock()
	t.upstreamSynced = true
	t.maybeDoneLocked()
}

func (t *AsyncTracker[T]) maybeDoneLocked() {
	if t.upstreamSynced && len(t.waiting) == 0 {
		if t.done.ch == nil {
			t.done = newDoneSignal()
		}
		t.done.close()
	}
}

// HasSynced reports whether the upstream has synced and every key started
// until then has finished. Once true it stays true.
func (t *AsyncTracker[T]) HasSynced() bool {
	t.lock.Lock()
	defer t.lock.Unlock()
	return t.done.closed
}

// Done returns a channel closed once HasSynced becomes true.
func (t *AsyncTracker[T]) Done() <-chan struct{} {
	t.lock.Lock()
	defer t.lock.Unlock()
	if t.done.ch == nil {
		t.done = newDoneSignal()
	}
	return t.done.ch
}

// SingleFileTracker tracks initial-list items processed one at a time in
// order, by counting them.
type SingleFileTracker struct {
	name string

	// lock guards count and upstreamSynced.
	lock           sync.Mutex
	count          int64
	upstreamSynced bool
	done           doneSignal
}

// NewSingleFileTracker returns a tracker with the given name.
func NewSingleFileTracker(name string) *SingleFileTracker {
	return &SingleFileTracker{name: name, done: newDoneSignal()}
}

// Name returns the tracker's name.
func (t *SingleFileTracker) Name() string { return t.name }

// Start records that an initial-list item is about to be processed.
func (t *SingleFileTracker) Start() {
	t.lock.Lock()
	defer t.lock.Unlock()
	t.count++
}

// Finished records that an item passed to Start is processed. It panics if
// called more often than Start, which is a logic error in the caller.
func (t *SingleFileTracker) Finished() {
	t.lock.Lock()
	defer t.lock.Unlock()
	t.count--
	if t.count < 0 {
		panic("synctrack: negative counter: SingleFileTracker.Finished called more often than Start")
	}
	t.maybeDoneLocked()
}

// UpstreamHasSynced tells the tracker that the source has synced. Call it
// after every initial-list item was handed to Start.
func (t *SingleFileTracker) UpstreamHasSynced() {
	t.lock.Lock()
	defer t.lock.Unlock()
	t.upstreamSynced = true
	t.maybeDoneLocked()
}

func (t *SingleFileTracker) maybeDoneLocked() {
	if t.upstreamSynced && t.count == 0 {
		if t.done.ch == nil {
			t.done = newDoneSignal()
		}
		t.done.close()
	}
}

// HasSynced reports whether the upstream has synced and no item started
// until then is outstanding. Once true it stays true.
func (t *SingleFileTracker) HasSynced() bool {
	t.lock.Lock()
	defer t.lock.Unlock()
	return t.done.closed
}

// Done returns a channel closed once HasSynced becomes true.
func (t *SingleFileTracker) Done() <-chan struct{} {
	t.lock.Lock()
	defer t.lock.Unlock()
	if t.done.ch == nil {
		t.done = newDoneSignal()
	}
	return t.done.ch
}
