package synctrack

import (
	"sync"
	"sync/atomic"
)

// Lazy caches the result of Evaluate until Notify marks it stale. Evaluate
// may run concurrently from several goroutines; errors are not cached.
type Lazy[T any] struct {
	Evaluate func() (T, error)

	// generation is bumped by Notify.
	generation atomic.Int64
	// cached is the latest successful result, or nil.
	cached atomic.Pointer[lazyResult[T]]
	// mu serialises evaluations that start at the same generation.
	mu sync.Mutex
}

type lazyResult[T any] struct {
	generation int64
	value      T
}

// Notify marks the cached value stale.
func (z *Lazy[T]) Notify() { z.generation.Add(1) }

// Get returns the cached value, calling Evaluate first if it is stale.
// Concurrent callers at the same generation share one evaluation.
func (z *Lazy[T]) Get() (T, error) {
	gen := z.generation.Load()
	if r := z.cached.Load(); r != nil && r.generation >= gen {
		return r.value, nil
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	gen = z.generation.Load()
	if r := z.cached.Load(); r != nil && r.generation >= gen {
		return r.value, nil
	}
	v, err := z.Evaluate()
	if err != nil {
		return v, err
	}
	z.cached.Store(&lazyResult[T]{generation: gen, value: v})
	return v, nil
}
