package harness

import (
	"fmt"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Counter is the informers' one event handler: it counts notifications,
// checks that each carries an object with metadata and, for updates, a new
// resourceVersion, and wakes a waiter when the count reaches a target.
// Its methods satisfy both libraries' ResourceEventHandler.
type Counter struct {
	adds, initial, updates, deletes, bad atomic.Int64
	total                                atomic.Int64
	want                                 atomic.Int64
	reached                              chan struct{}
	// every and ticks, set before the handler is added: each tick gets
	// a wake-up every `every` notifications (see readers).
	every int64
	ticks []chan struct{}
}

// setTicks makes the Counter wake each of ticks every `every`
// notifications. Call it before adding the Counter as a handler.
func (c *Counter) setTicks(every int64, ticks []chan struct{}) {
	c.every, c.ticks = every, ticks
}

// NewCounter returns a Counter with no target.
func NewCounter() *Counter {
	c := &Counter{reached: make(chan struct{}, 1)}
	c.want.Store(-1)
	return c
}

func (c *Counter) seen() {
	total := c.total.Add(1)
	if c.every > 0 && total%c.every == 0 {
		for _, t := range c.ticks {
			select {
			case t <- struct{}{}:
			default:
			}
		}
	}
	if total == c.want.Load() {
		select {
		case c.reached <- struct{}{}:
		default:
		}
	}
}

// OnAdd counts an add.
func (c *Counter) OnAdd(obj any, isInInitialList bool) {
	if m, ok := obj.(metav1.Object); !ok || m.GetName() == "" {
		c.bad.Add(1)
	}
	if isInInitialList {
		c.initial.Add(1)
	}
	c.adds.Add(1)
	c.seen()
}

// OnUpdate counts an update.
func (c *Counter) OnUpdate(oldObj, newObj any) {
	o, ok1 := oldObj.(metav1.Object)
	n, ok2 := newObj.(metav1.Object)
	if !ok1 || !ok2 || o.GetResourceVersion() == n.GetResourceVersion() || o.GetName() != n.GetName() {
		c.bad.Add(1)
	}
	c.updates.Add(1)
	c.seen()
}

// OnDelete counts a delete (none is expected).
func (c *Counter) OnDelete(any) {
	c.deletes.Add(1)
	c.seen()
}

// await waits until the handler has seen want notifications in all.
func (c *Counter) await(want int64, timeout time.Duration) error {
	c.want.Store(want)
	if c.total.Load() >= want {
		return nil
	}
	select {
	case <-c.reached:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("handler saw %d notifications (%d adds, %d updates, %d deletes) in %v, want %d",
			c.total.Load(), c.adds.Load(), c.updates.Load(), c.deletes.Load(), timeout, want)
	}
}
