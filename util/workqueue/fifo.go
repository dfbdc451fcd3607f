package workqueue

import "github.com/kubeclient/client-go/util/workqueue/internal/ring"

// Queue is the ordering policy behind a Typed queue: it holds the items that
// wait for a worker. A Typed queue calls it only while holding its own lock,
// so implementations need no locking of their own.
type Queue[T comparable] interface {
	// Touch is called when an item that is already waiting is added again;
	// a priority queue may use it to move the item.
	Touch(item T)
	// Push appends an item that is not yet waiting.
	Push(item T)
	// Len returns how many items are waiting.
	Len() int
	// Pop removes and returns the next item. It is only called when Len > 0.
	Pop() (item T)
}

// DefaultQueue returns a first-in, first-out Queue.
func DefaultQueue[T comparable]() Queue[T] {
	return &fifoQueue[T]{}
}

// fifoQueue is the first-in, first-out Queue; Touch leaves an item where it
// is.
type fifoQueue[T comparable] struct {
	ring.Ring[T]
}

func (*fifoQueue[T]) Touch(T) {}
