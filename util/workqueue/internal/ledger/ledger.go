// Package ledger keeps the per-item bookkeeping of a work queue: which
// items wait for a worker, which are in flight, and which were added again
// while in flight. The queue keeps the waiting items themselves, in its
// own order; the ledger tells it when to queue one.
package ledger

import "github.com/kubeclient/client-go/util/workqueue/internal/itemtable"

// Hash is an item's hash; see Ledger.Hash.
type Hash = itemtable.Hash

// state is the one word a Ledger keeps per item.
//
// With the FIFO order, the low bits hold the item's ticket: the number of
// items queued before it. Items leave a FIFO in ticket order, so an item is
// in flight exactly when its ticket is below the count of items handed out,
// and handing an item out costs no lookup. With a queue-defined order, the
// ledger cannot know which item leaves next and marks the item it is told
// about with inFlightBit instead.
type state uint64

const (
	// redoBit marks an in-flight item that was added again and must be
	// queued once more when its worker finishes.
	redoBit state = 1 << 63
	// inFlightBit marks an in-flight item under a queue-defined order.
	inFlightBit state = 1 << 62
	ticketBits        = inFlightBit - 1
)

// Ledger is the bookkeeping of one work queue. It is not safe for
// concurrent use, except for Hash; the queue calls it under its lock.
type Ledger[T comparable] struct {
	items itemtable.Table[T, state]
	fifo  bool
	// queued and handedOut count the items queued and handed out under
	// the FIFO order; tickets are taken from queued.
	queued, handedOut uint64
}

// Init prepares an empty ledger. fifo says that the queue hands items out
// in the order it was told to queue them; otherwise the queue must report
// each item it hands out with HandOut.
func (l *Ledger[T]) Init(fifo bool) {
	l.items.Init()
	l.fifo = fifo
}

// Hash returns item's hash, which Add and Finish take so that callers can
// compute it before taking their lock. It is safe for concurrent use.
func (l *Ledger[T]) Hash(item T) Hash { return l.items.Hash(item) }

// AddOutcome says what the queue must do after Add.
type AddOutcome int

const (
	// Queue: the item is new; the queue must queue it now.
	Queue AddOutcome = iota
	// AlreadyWaiting: the item waits already; nothing changes (a
	// priority order may reconsider it).
	AlreadyWaiting
	// QueueAfterFinish: the item is in flight; Finish will ask for it to
	// be queued again.
	QueueAfterFinish
	// AlreadyAddedAgain: the item is in flight and was already added
	// again; nothing changes.
	AlreadyAddedAgain
)

// Add records that item, whose hash is h, was added to the queue.
func (l *Ledger[T]) Add(item T, h Hash) AddOutcome {
	slot, known := l.items.Insert(item, h)
	st := l.items.Value(slot)
	switch {
	case !known:
		*st = l.waiting()
		return Queue
	case !l.inFlight(*st):
		return AlreadyWaiting
	case *st&redoBit != 0:
		return AlreadyAddedAgain
	default:
		*st |= redoBit
		return QueueAfterFinish
	}
}

// HandOutNext records that a FIFO queue handed its oldest item out.
func (l *Ledger[T]) HandOutNext() { l.handedOut++ }

// HandOut records that a queue with its own order handed item out.
func (l *Ledger[T]) HandOut(item T) {
	if slot, ok := l.items.Find(item, l.items.Hash(item)); ok {
		*l.items.Value(slot) = inFlightBit
	}
}

// FinishOutcome says what the queue must do after Finish.
type FinishOutcome int

const (
	// NotInFlight: the item was not handed out; nothing changes.
	NotInFlight FinishOutcome = iota
	// Forgotten: the item is done and no longer known.
	Forgotten
	// QueueAgain: the item was added while in flight; the queue must
	// queue it now.
	QueueAgain
)

// Finish records that the worker holding item, whose hash is h, is done.
func (l *Ledger[T]) Finish(item T, h Hash) FinishOutcome {
	slot, ok := l.items.Find(item, h)
	if !ok {
		return NotInFlight
	}
	st := l.items.Value(slot)
	switch {
	case !l.inFlight(*st):
		return NotInFlight
	case *st&redoBit != 0:
		*st = l.waiting()
		return QueueAgain
	default:
		l.items.Delete(slot)
		return Forgotten
	}
}

// waiting returns the state of an item about to be queued, taking a
// ticket under the FIFO order.
func (l *Ledger[T]) waiting() state {
	if !l.fifo {
		return 0
	}
	ticket := state(l.queued)
	l.queued++
	return ticket
}

func (l *Ledger[T]) inFlight(st state) bool {
	if l.fifo {
		return uint64(st&ticketBits) < l.handedOut
	}
	return st&inFlightBit != 0
}
