// Package inbox provides Inbox, where goroutines that find a work queue's
// lock held leave their operation for the lock's holder to apply.
package inbox

import (
	"runtime"
	"sync/atomic"
)

// Inbox is a bounded first-in, first-out queue of elements that any
// goroutine may Post and that one goroutine at a time, the holder of a
// lock the Inbox's owner keeps, Takes. It never allocates after Init.
//
// Each slot carries a sequence number that says whose turn it is: a slot
// with sequence p is free for the element posted at position p; once the
// element is written the sequence becomes p+1, which makes it ready to
// take; taking it sets the sequence to p+len(slots), freeing the slot for
// the element that comes one lap later. Posters claim positions by
// compare-and-swap on tail; the taker advances head alone.
//
// A Post that returned is never hidden from a later Take: a poster that
// claimed a position before it may not have written it yet (it claims,
// then writes, and may be descheduled in between), so Take waits for that
// write, which takes the poster no more than a store, rather than report
// the inbox empty while later positions hold elements.
type Inbox[E any] struct {
	// The taker's fields and the posters' tail sit on cache lines of
	// their own, so that a post does not take the line the taker reads.
	_     cacheLinePad
	slots []slot[E]
	mask  uint64
	head  atomic.Uint64 // the next position to take; written only by the taker
	// settled is the position below which every element has been taken
	// and handled; written only by the taker (Settle).
	settled atomic.Uint64
	_       cacheLinePad
	tail    atomic.Uint64 // the next position to claim
	_       cacheLinePad
}

// cacheLinePad keeps the fields around it on separate cache lines.
type cacheLinePad [64]byte

type slot[E any] struct {
	seq  atomic.Uint64
	elem E
}

// Init makes an empty inbox with room for size elements, a power of two.
func (b *Inbox[E]) Init(size int) {
	if size <= 0 || size&(size-1) != 0 {
		panic("inbox: size must be a positive power of two")
	}
	b.slots = make([]slot[E], size)
	b.mask = uint64(size - 1)
	for i := range b.slots {
		b.slots[i].seq.Store(uint64(i))
	}
}

// Ticket is the position of a posted element, for Settled.
type Ticket uint64

// Post appends e and reports true with e's ticket, or reports false when
// the inbox is full (an inbox never initialized is always full).
// It is safe for concurrent use, with other Posts and with Take.
func (b *Inbox[E]) Post(e E) (Ticket, bool) {
	if len(b.slots) == 0 {
		return 0, false
	}
	for {
		pos := b.tail.Load()
		s := &b.slots[pos&b.mask]
		switch seq := s.seq.Load(); {
		case seq == pos:
			if b.tail.CompareAndSwap(pos, pos+1) {
				if h := hooks.Load(); h != nil && h.Claimed != nil {
					h.Claimed()
				}
				s.elem = e
				s.seq.Store(pos + 1)
				return Ticket(pos), true
			}
		case seq < pos:
			return 0, false // the slot still holds the element of the last lap
		}
		// Another poster claimed pos first; try the next position.
	}
}

// Take removes and returns the oldest element, ok false when nothing has
// been posted since the last Take. If the oldest element's poster has
// claimed its slot but not yet written it, Take waits for the write. Only
// one goroutine at a time may call Take.
func (b *Inbox[E]) Take() (e E, ok bool) {
	if len(b.slots) == 0 {
		return e, false
	}
	pos := b.head.Load()
	if pos == b.tail.Load() {
		return e, false
	}
	s := &b.slots[pos&b.mask]
	if s.seq.Load() != pos+1 {
		if h := hooks.Load(); h != nil && h.Waiting != nil {
			h.Waiting()
		}
		for s.seq.Load() != pos+1 {
			runtime.Gosched() // the poster is between its claim and its write
		}
	}
	e = s.elem
	var zero E
	s.elem = zero // drop the reference, so the slot keeps nothing alive
	s.seq.Store(pos + uint64(len(b.slots)))
	b.head.Store(pos + 1)
	return e, true
}

// Settle records that the element last taken has been handled. Only the
// taker calls it, after Take and whatever it does with the element.
func (b *Inbox[E]) Settle() {
	b.settled.Store(b.head.Load())
}

// Settled reports whether the element posted with ticket t has been taken
// and handled (Settle). It is safe for concurrent use.
func (b *Inbox[E]) Settled(t Ticket) bool {
	return b.settled.Load() > uint64(t)
}

// Pending reports whether Take would return an element: whether a Post
// has claimed a slot since the last Take, written or not. It is safe for
// concurrent use; the answer may be stale by the time the caller acts on
// it, which is why a poster, after Post, must itself try to apply what is
// posted (see the package workqueue's queue lock).
func (b *Inbox[E]) Pending() bool {
	return len(b.slots) != 0 && b.head.Load() != b.tail.Load()
}
