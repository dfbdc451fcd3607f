// Package ring provides Ring, the first-in, first-out buffer of the work
// queues.
package ring

// Ring is a FIFO kept in a circular buffer whose capacity is a power of
// two, so that steady-state Push and Pop never allocate. It grows when
// full and shrinks when mostly empty. The zero value is an empty ring. A
// Ring is not safe for concurrent use.
type Ring[T any] struct {
	buf  []T
	head int // index of the oldest element
	n    int // number of elements
}

// minCapacity is the capacity a ring starts with and never shrinks below.
const minCapacity = 16

// Len returns the number of elements.
func (r *Ring[T]) Len() int { return r.n }

// Push appends v.
func (r *Ring[T]) Push(v T) {
	if r.n == len(r.buf) {
		r.resize(max(2*len(r.buf), minCapacity))
	}
	r.buf[r.index(r.n)] = v
	r.n++
}

// Pop removes and returns the oldest element. The ring must not be empty.
func (r *Ring[T]) Pop() T {
	v := r.buf[r.head]
	var zero T
	r.buf[r.head] = zero // drop the reference for the garbage collector
	r.head = r.index(1)
	r.n--
	if len(r.buf) > minCapacity && r.n <= len(r.buf)/8 {
		r.resize(len(r.buf) / 2)
	}
	return v
}

// index returns the buffer index of the element i places after the head.
func (r *Ring[T]) index(i int) int { return (r.head + i) & (len(r.buf) - 1) }

// resize moves the elements, oldest first, into a buffer of the given
// capacity, which must hold them.
func (r *Ring[T]) resize(capacity int) {
	buf := make([]T, capacity)
	for i := range r.n {
		buf[i] = r.buf[r.index(i)]
	}
	r.buf, r.head = buf, 0
}
