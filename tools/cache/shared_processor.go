package cache

// The notification fan-out of a shared informer: informerSink turns applied
// deltas into notifications, sharedProcessor queues each one for every
// handler's processorListener. sharedProcessor.run starts one goroutine per
// listener (listener.run) and, when its context ends, stops them all and
// waits for them.

import (
	"context"
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// informerSink turns applied deltas into notifications for the
// informer's handlers; it runs under blockDeltas.
type informerSink sharedIndexInformer

func (s *informerSink) add(obj interface{}, initial bool) {
	s.cacheMutationDetector.AddObject(obj)
	s.processor.distribute(notification{kind: addKind, newObj: obj, initial: initial}, false)
}

func (s *informerSink) update(oldObj, newObj interface{}, sync bool) {
	s.cacheMutationDetector.AddObject(newObj)
	s.processor.distribute(notification{kind: updateKind, oldObj: oldObj, newObj: newObj}, sync)
}

func (s *informerSink) delete(obj interface{}) {
	s.processor.distribute(notification{kind: deleteKind, oldObj: obj}, false)
}

func (s *informerSink) resyncAll(objs []interface{}) {
	for _, obj := range objs {
		s.processor.distribute(notification{kind: updateKind, oldObj: obj, newObj: obj}, true)
	}
}

// sharedProcessor fans notifications out to the listeners.
type sharedProcessor struct {
	clock clock.Clock

	// lock guards listeners, started and stopped. The map value says
	// whether the listener is due for the current resync.
	lock      sync.RWMutex
	listeners map[*processorListener]bool
	started   bool
	stopped   bool
	wg        sync.WaitGroup
}

func (p *sharedProcessor) addListener(l *processorListener) {
	p.lock.Lock()
	defer p.lock.Unlock()
	if p.stopped {
		// The processor shut down already: nothing will ever run l.
		l.stop(false)
		return
	}
	p.listeners[l] = true
	if p.started {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			l.run()
		}()
	}
}

func (p *sharedProcessor) removeListener(l *processorListener) {
	p.lock.Lock()
	defer p.lock.Unlock()
	if _, ok := p.listeners[l]; !ok {
		return
	}
	delete(p.listeners, l)
	l.stop(p.started)
}

// distribute queues n for every listener, or only for the listeners due
// for a resync when sync is set.
func (p *sharedProcessor) distribute(n notification, sync bool) {
	p.lock.RLock()
	defer p.lock.RUnlock()
	for l, syncing := range p.listeners {
		if !sync || syncing {
			l.add(n)
		}
	}
}

func (p *sharedProcessor) upstreamSynced() {
	p.lock.RLock()
	defer p.lock.RUnlock()
	for l := range p.listeners {
		l.syncTracker.UpstreamHasSynced()
	}
}

// run starts every listener and stops them all when ctx ends.
func (p *sharedProcessor) run(ctx context.Context) {
	p.lock.Lock()
	for l := range p.listeners {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			l.run()
		}()
	}
	p.started = true
	p.lock.Unlock()

	<-ctx.Done()

	p.lock.Lock()
	p.stopped = true
	for l := range p.listeners {
		l.stop(true)
	}
	p.lock.Unlock()
	p.wg.Wait()
}

// shouldResync marks which listeners are due for a resync and reports
// whether any is.
func (p *sharedProcessor) shouldResync() bool {
	p.lock.Lock()
	defer p.lock.Unlock()
	now := p.clock.Now()
	anyDue := false
	for l := range p.listeners {
		p.listeners[l] = l.claimResync(now)
		anyDue = anyDue || p.listeners[l]
	}
	return anyDue
}

func (p *sharedProcessor) resyncCheckPeriodChanged(checkPeriod time.Duration) {
	p.lock.RLock()
	defer p.lock.RUnlock()
	for l := range p.listeners {
		l.setResyncPeriod(determineResyncPeriod(l.requestedResyncPeriod, checkPeriod))
	}
}

// determineResyncPeriod is the period a handler actually gets.
func determineResyncPeriod(desired, check time.Duration) time.Duration {
	if desired == 0 {
		return desired
	}
	if check == 0 {
		return 0
	}
	if desired < check {
		return check
	}
	return desired
}
