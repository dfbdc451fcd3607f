package synctrack

import (
	"sync"
	"sync/atomic"
)

// Lazy caches the result of Evaluate until Notify marks it stale.
//
// A Get that finds the cache stale evaluates; Gets that arrive meanwhile, with
// no Notify in between, wait for that evaluation and return its result. A Get
// after a Notify does not wait for an evaluation that started before the
// Notify: it starts its own, so Evaluate may run in parallel from several
// goroutines. An older evaluation that finishes last never replaces the
// result of a newer one in the cache. Errors are returned to the Gets that
// waited for them but are not cached, so the next Get evaluates again.
type Lazy[T any] struct {
	Evaluate func() (T, error)

	// generation counts Notify calls.
	generation atomic.Int64
	// cached is the successful result of the newest evaluation, or nil.
	cached atomic.Pointer[lazyResult[T]]

	// mu guards pending, the evaluation in flight for the newest
	// generation that a Get found stale.
	mu      sync.Mutex
	pending *lazyCall[T]
}

// lazyResult is a value and the generation it was evaluated at.
type lazyResult[T any] struct {
	generation int64
	value      T
}

// lazyCall is one evaluation; value and err are set before done closes.
type lazyCall[T any] struct {
	generation int64
	done       chan struct{}
	value      T
	err        error
}

// Notify marks the cached value stale.
func (z *Lazy[T]) Notify() { z.generation.Add(1) }

// Get returns the cached value, or evaluates (or waits for an evaluation
// that started at the current generation) if it is stale.
func (z *Lazy[T]) Get() (T, error) {
	gen := z.generation.Load()
	if r := z.cached.Load(); r != nil && r.generation >= gen {
		return r.value, nil
	}

	z.mu.Lock()
	if c := z.pending; c != nil && c.generation >= gen {
		z.mu.Unlock()
		<-c.done
		return c.value, c.err
	}
	// An evaluation may have finished since the first look: it stores its
	// result before it leaves pending.
	if r := z.cached.Load(); r != nil && r.generation >= gen {
		z.mu.Unlock()
		return r.value, nil
	}
	c := &lazyCall[T]{generation: gen, done: make(chan struct{})}
	z.pending = c
	z.mu.Unlock()

	c.value, c.err = z.Evaluate()
	if c.err == nil {
		z.store(&lazyResult[T]{generation: gen, value: c.value})
	}
	z.mu.Lock()
	if z.pending == c {
		z.pending = nil
	}
	z.mu.Unlock()
	close(c.done)
	return c.value, c.err
}

// store caches r unless a result of a newer generation is cached already.
func (z *Lazy[T]) store(r *lazyResult[T]) {
	for {
		old := z.cached.Load()
		if old != nil && old.generation > r.generation {
			return
		}
		if z.cached.CompareAndSwap(old, r) {
			return
		}
	}
}
