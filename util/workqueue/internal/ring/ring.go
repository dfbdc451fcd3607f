// Package ring provides Ring, the first-in, first-out buffer of the work
// queues.
package ring

import "math/bits"

// Ring is a FIFO kept in a circular buffer whose capacity is a power of
// two, so that steady-state Push and Pop never allocate. It grows when
// full. It shrinks only when a whole window of pops (as many pops as it
// has slots) went by without the ring ever being more than a quarter
// full: a queue whose backlog rises and falls all the time keeps its
// buffer instead of copying it back and forth, and a queue that had one
// burst gives the memory back soon after. The zero value is an empty
// ring. A Ring is not safe for concurrent use.
type Ring[T any] struct {
	buf  []T
	head int // index of the oldest element
	n    int // number of elements

	// peak is the largest n since the current window began and pops the
	// number of pops in it.
	peak, pops int
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
	r.peak = max(r.peak, r.n)
}

// Pop removes and returns the oldest element. The ring must not be empty.
func (r *Ring[T]) Pop() T {
	v := r.buf[r.head]
	var zero T
	r.buf[r.head] = zero // drop the reference for the garbage collector
	r.head = r.index(1)
	r.n--
	r.pops++
	if r.pops >= len(r.buf) {
		r.endWindow()
	}
	return v
}

// endWindow shrinks the buffer if it was never more than a quarter full
// during the window that ends, to twice the window's peak, and starts a
// new window.
func (r *Ring[T]) endWindow() {
	if len(r.buf) > minCapacity && r.peak <= len(r.buf)/4 {
		r.resize(max(minCapacity, powerOfTwoAtLeast(2*r.peak)))
		return
	}
	r.peak, r.pops = r.n, 0
}

// index returns the buffer index of the element i places after the head.
func (r *Ring[T]) index(i int) int { return (r.head + i) & (len(r.buf) - 1) }

// resize moves the elements, oldest first, into a buffer of the given
// capacity, which must hold them, and starts a new window.
func (r *Ring[T]) resize(capacity int) {
	buf := make([]T, capacity)
	for i := range r.n {
		buf[i] = r.buf[r.index(i)]
	}
	r.buf, r.head = buf, 0
	r.peak, r.pops = r.n, 0
}

// powerOfTwoAtLeast returns the smallest power of two that is >= x, for
// x >= 1.
func powerOfTwoAtLeast(x int) int { return 1 << bits.Len(uint(x-1)) }
