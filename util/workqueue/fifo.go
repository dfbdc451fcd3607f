package workqueue

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
	return &ring[T]{}
}

// ring is a FIFO kept in a circular buffer whose capacity is a power of two,
// so steady-state Push and Pop never allocate.
type ring[T any] struct {
	buf  []T
	head int // index of the oldest element
	n    int // number of elements
}

// minRing is the capacity a ring starts with and never shrinks below.
const minRing = 16

func (r *ring[T]) Touch(T) {}

func (r *ring[T]) Len() int { return r.n }

func (r *ring[T]) Push(item T) {
	if r.n == len(r.buf) {
		r.resize(max(2*len(r.buf), minRing))
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = item
	r.n++
}

func (r *ring[T]) Pop() T {
	var zero T
	item := r.buf[r.head]
	r.buf[r.head] = zero // drop the reference for the garbage collector
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	if len(r.buf) > minRing && r.n <= len(r.buf)/8 {
		r.resize(len(r.buf) / 2)
	}
	return item
}

// resize moves the elements, oldest first, into a buffer of size capacity.
func (r *ring[T]) resize(capacity int) {
	buf := make([]T, capacity)
	if r.n > 0 {
		k := copy(buf, r.buf[r.head:min(r.head+r.n, len(r.buf))])
		copy(buf[k:], r.buf[:r.n-k])
	}
	r.buf, r.head = buf, 0
}
