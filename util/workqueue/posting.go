package workqueue

import (
	"runtime"

	"github.com/kubeclient/client-go/util/workqueue/internal/inbox"
	"github.com/kubeclient/client-go/util/workqueue/internal/ledger"
)

// The lock protocol of Typed, and the posting of Adds and Dones.
//
// Every goroutine that takes q.mu sets q.held right after and applies
// whatever was posted (lock, tryLock); it clears q.held before it
// releases q.mu and, once released, takes q.mu again if something was
// posted meanwhile (unlock). A caller whose Add or Done finds q.mu held
// posts the operation and returns as soon as it sees q.held set: the
// holder will see the post when it checks after releasing, since the
// post came before the holder cleared q.held. The holder's check counts
// a post whose poster claimed its slot and has not written it yet, and
// taking such a post waits for the write (inbox.Inbox.Take): a later post
// behind it is not hidden. If q.held is clear, the
// holder is just taking or just releasing q.mu, and the poster tries to
// take it itself until either happens (post). So a posted operation is
// applied before the poster's next call that takes the lock, and no
// posted operation is left behind when the lock goes idle.
//
// A queue with metrics posts too, but its poster returns only once its
// operation has been applied (awaitApplied): each operation then updates
// the metrics under the lock, between its call and its return, as
// client-go's does, so a caller that reads a metric after Add or Done
// returned sees the update, and timestamps (when an item was added, when
// its work finished) fall within the call. The poster still leaves the
// work to the goroutine running the queue instead of taking the lock
// itself.
//
// Under contention this turns a goroutine that would wait for the lock
// (and, with more goroutines than processors, be descheduled and woken)
// into one that leaves its work to the goroutine already running the
// queue, with the queue's memory in its cache.

// postedSlots is how many operations may wait in Typed.posted; a caller
// that finds it full waits for the lock instead.
const postedSlots = 128

// postedOp is an Add or a Done, with the item's hash.
type postedOp[T comparable] struct {
	item T
	hash ledger.Hash
	done bool
}

// queueLocker is a queue seen as the sync.Locker of its cond: Get's and
// ShutDownWithDrain's waits release and retake the lock by the protocol.
type queueLocker[T comparable] Typed[T]

func (l *queueLocker[T]) Lock()   { (*Typed[T])(l).lock() }
func (l *queueLocker[T]) Unlock() { (*Typed[T])(l).unlock() }

// lock takes q.mu and applies what was posted.
func (q *Typed[T]) lock() {
	q.mu.Lock()
	q.taken()
}

// tryLock is lock if q.mu is free; it reports whether it took it.
func (q *Typed[T]) tryLock() bool {
	if !q.mu.TryLock() {
		return false
	}
	q.taken()
	return true
}

// taken is what a goroutine does as soon as it has taken q.mu.
func (q *Typed[T]) taken() {
	q.held.Store(true)
	q.applyPosted()
}

// unlock releases q.mu, signals the Gets that items were queued for, and
// applies what was posted while it was held if no one else took q.mu.
func (q *Typed[T]) unlock() {
	for {
		wakes := q.wakes
		q.wakes = 0
		q.held.Store(false)
		q.mu.Unlock()
		for range wakes {
			q.cond.Signal()
		}
		if !q.posted.Pending() || !q.tryLock() {
			return
		}
	}
}

// apply performs op: under q.mu if it is free, else by posting it, else
// (when the inbox is full or was never set up) waiting for q.mu.
func (q *Typed[T]) apply(op postedOp[T]) {
	if !q.tryLock() {
		if q.post(op) {
			return
		}
		q.lock()
	}
	q.applyOne(op)
	q.unlock()
}

// post leaves op for the holder of q.mu, or applies it itself if it takes
// q.mu; it reports false, having done nothing, when op cannot be posted.
// On a queue with metrics it returns only once op has been applied
// (awaitApplied).
func (q *Typed[T]) post(op postedOp[T]) bool {
	ticket, ok := q.posted.Post(op)
	if !ok {
		return false
	}
	if q.metrics != nil {
		q.awaitApplied(ticket)
		return true
	}
	for {
		if q.held.Load() {
			return true // the holder checks for posts after it releases
		}
		if q.tryLock() { // applies op with the rest
			q.unlock()
			return true
		}
		runtime.Gosched() // q.mu is being taken or released
	}
}

// awaitApplied returns once the operation posted with ticket has been
// applied, by the holder of q.mu or by the caller itself when q.mu comes
// free. It yields as queueLock does before blocking on q.mu.
func (q *Typed[T]) awaitApplied(ticket inbox.Ticket) {
	for range lockYields {
		if q.posted.Settled(ticket) {
			return
		}
		if q.tryLock() { // applies op with the rest
			q.unlock()
			return
		}
		runtime.Gosched()
	}
	if !q.posted.Settled(ticket) {
		q.lock() // applies op, if no holder has yet
		q.unlock()
	}
}

// applyPosted applies the posted operations in the order they were posted.
// q.mu must be held.
func (q *Typed[T]) applyPosted() {
	for {
		op, ok := q.posted.Take()
		if !ok {
			return
		}
		q.applyOne(op)
		q.posted.Settle()
	}
}

// applyOne applies an Add or a Done. q.mu must be held.
func (q *Typed[T]) applyOne(op postedOp[T]) {
	if op.done {
		q.done(op.item, op.hash)
	} else {
		q.add(op.item, op.hash)
	}
}
