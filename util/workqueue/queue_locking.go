package workqueue

// queueLocker is a queue seen as the sync.Locker of its cond: Get's and
// ShutDownWithDrain's waits release and retake the lock through lock and
// unlock.
type queueLocker[T comparable] Typed[T]

func (l *queueLocker[T]) Lock()   { (*Typed[T])(l).lock() }
func (l *queueLocker[T]) Unlock() { (*Typed[T])(l).unlock() }

// lock takes q.mu.
func (q *Typed[T]) lock() { q.mu.Lock() }

// unlock releases q.mu and then signals the Gets that items were queued
// for, so that a woken Get does not at once block on the lock still held.
func (q *Typed[T]) unlock() {
	wakes := q.wakes
	q.wakes = 0
	q.mu.Unlock()
	for range wakes {
		q.cond.Signal()
	}
}
