package cache

import (
	"errors"
	"sync"
)

// PopProcessFunc processes an accumulator popped from a Queue.
// isInInitialList tells whether it belongs to the queue's initial Replace.
type PopProcessFunc func(obj interface{}, isInInitialList bool) error

// ProcessFunc processes one object.
type ProcessFunc func(obj interface{}, isInInitialList bool) error

// ProcessBatchFunc processes several deltas at once. No two deltas in one
// batch belong to the same object.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// ErrFIFOClosed is returned by Pop on a closed queue.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// Queue is a ReflectorStore that also keeps a set of keys to process, in
// order. It is safe for concurrent use; once closed, Pop returns an error.
type Queue interface {
	ReflectorStore

	// Pop blocks until a key is ready or the queue is closed, then removes
	// the key and its accumulator and processes the accumulator with the
	// given function. Pop is meant for a single consumer goroutine.
	Pop(PopProcessFunc) (interface{}, error)

	// HasSynced reports whether everything from the first Replace has been
	// popped (or whether a plain write came before any Replace).
	HasSynced() bool

	// HasSyncedChecker is the non-polling form of HasSynced.
	HasSyncedChecker() DoneChecker

	// Close closes the queue.
	Close()
}

// QueueWithBatch is a Queue that can hand out several keys at once.
type QueueWithBatch interface {
	Queue

	// PopBatch pops one or more keys: a batch goes to processBatch, a single
	// key to processSingle. Both must process items the same way. It is
	// meant for a single consumer goroutine.
	PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error
}

// initialSync tracks a queue's "has synced" state: whether the first batch
// of items (from an initial Replace) has been fully popped. The owning
// queue's lock guards it.
type initialSync struct {
	name string
	// populated is set by the first write of any kind.
	populated bool
	// remaining counts items of the initial Replace not yet popped.
	remaining int
	once      sync.Once
	done      chan struct{}
}

func newInitialSync(name string) *initialSync {
	return &initialSync{name: name, done: make(chan struct{})}
}

func (s *initialSync) synced() bool { return s.populated && s.remaining == 0 }

// markPopulated records a write; count is the size of the first batch when
// the write is a Replace, zero otherwise.
func (s *initialSync) markPopulated(count int) {
	if s.populated {
		return
	}
	s.populated = true
	s.remaining = count
	s.signalIfSynced()
}

// popped records that one queued item was handed out.
func (s *initialSync) popped() {
	if s.remaining > 0 {
		s.remaining--
	}
}

func (s *initialSync) signalIfSynced() {
	if s.synced() {
		s.once.Do(func() { close(s.done) })
	}
}

func (s *initialSync) Name() string          { return s.name }
func (s *initialSync) Done() <-chan struct{} { return s.done }
