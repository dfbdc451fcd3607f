package cache

import (
	"sync"
	"sync/atomic"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/cache/synctrack"
)

type notificationKind uint8

const (
	addKind notificationKind = iota
	updateKind
	deleteKind
)

// notification is one call to make on a handler. It is stored by value so
// queueing it allocates nothing.
type notification struct {
	kind    notificationKind
	initial bool
	oldObj  interface{}
	newObj  interface{}
}

// processorListener delivers notifications to one handler on its own
// goroutine, buffering without bound so that the informer never waits for
// a slow handler. It is also the handler's registration.
type processorListener struct {
	handler     ResourceEventHandler
	logger      klog.Logger
	syncTracker *synctrack.SingleFileTracker

	// lock guards pending and the resync state below, and is held when
	// stopped is set; run reads stopped without it between deliveries.
	lock    sync.Mutex
	pending []notification
	spare   []notification
	stopped atomic.Bool
	// wake has room for one token; add and stop leave one to rouse run.
	wake chan struct{}
	// done is closed once the listener will call the handler no more.
	done     chan struct{}
	doneOnce sync.Once

	// requestedResyncPeriod is what the handler asked for; resyncPeriod is
	// what it gets after rounding to the informer's check period.
	requestedResyncPeriod time.Duration
	resyncPeriod          time.Duration
	nextResync            time.Time
}

var _ ResourceEventHandlerRegistration = &processorListener{}

func newProcessListener(logger klog.Logger, handler ResourceEventHandler, requestedResyncPeriod, resyncPeriod time.Duration, now time.Time, name string) *processorListener {
	l := &processorListener{
		handler:               handler,
		logger:                logger,
		syncTracker:           synctrack.NewSingleFileTracker(name),
		pending:               make([]notification, 0, initialBufferSize/16),
		wake:                  make(chan struct{}, 1),
		done:                  make(chan struct{}),
		requestedResyncPeriod: requestedResyncPeriod,
		resyncPeriod:          resyncPeriod,
		nextResync:            now.Add(resyncPeriod),
	}
	return l
}

// HasSynced reports whether the informer synced and the handler has
// processed every notification of the initial list.
func (l *processorListener) HasSynced() bool { return l.syncTracker.HasSynced() }

// HasSyncedChecker is the non-polling form of HasSynced.
func (l *processorListener) HasSyncedChecker() DoneChecker { return l.syncTracker }

// add queues n; it never blocks on the handler.
func (l *processorListener) add(n notification) {
	if n.initial && n.kind == addKind {
		l.syncTracker.Start()
	}
	l.lock.Lock()
	if l.stopped.Load() {
		l.lock.Unlock()
		return
	}
	l.pending = append(l.pending, n)
	l.lock.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// stop makes run return after the notification it is delivering. When
// run was never started (started false) done is closed right away.
func (l *processorListener) stop(started bool) {
	l.lock.Lock()
	l.stopped.Store(true)
	l.pending = nil
	l.lock.Unlock()
	if !started {
		l.doneOnce.Do(func() { close(l.done) })
		return
	}
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// run delivers queued notifications in order until stop.
func (l *processorListener) run() {
	defer l.doneOnce.Do(func() { close(l.done) })
	// panicked is set when the last handler call panicked and the panic was
	// swallowed (utilruntime.ReallyCrash false); the next call is delayed.
	panicked := false
	for {
		l.lock.Lock()
		if l.stopped.Load() {
			l.lock.Unlock()
			return
		}
		if len(l.pending) == 0 {
			l.lock.Unlock()
			<-l.wake
			continue
		}
		// Swap buffers: deliver this batch while producers fill the other.
		batch := l.pending
		l.pending = l.spare[:0]
		l.lock.Unlock()

		for i := range batch {
			if l.isStopped() {
				return
			}
			if panicked {
				l.pauseAfterPanic()
				if l.isStopped() {
					return
				}
			}
			panicked = !l.deliverRecovering(batch[i])
			batch[i] = notification{}
		}

		l.lock.Lock()
		if cap(batch) <= 4*initialBufferSize {
			l.spare = batch[:0]
		} else {
			// Let a buffer that grew during a burst be collected.
			l.spare = nil
		}
		l.lock.Unlock()
	}
}

func (l *processorListener) isStopped() bool { return l.stopped.Load() }

// panicPause is how long a listener waits after a handler panic before it
// delivers the next notification.
const panicPause = time.Second

// deliverRecovering delivers n and reports whether the handler returned
// normally. A panic goes to utilruntime.HandleCrashWithLogger, which logs it
// and re-panics unless utilruntime.ReallyCrash is false; in that case the
// notification is dropped and false is returned.
func (l *processorListener) deliverRecovering(n notification) (ok bool) {
	defer utilruntime.HandleCrashWithLogger(l.logger)
	l.deliver(n)
	return true
}

// pauseAfterPanic waits panicPause, returning early when the listener is
// stopped.
func (l *processorListener) pauseAfterPanic() {
	t := time.NewTimer(panicPause)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return
		case <-l.wake:
			// run re-checks pending under the lock, so an add token can
			// be consumed here without losing the notification.
			if l.isStopped() {
				return
			}
		}
	}
}

func (l *processorListener) deliver(n notification) {
	switch n.kind {
	case addKind:
		l.handler.OnAdd(n.newObj, n.initial)
		if n.initial {
			l.syncTracker.Finished()
		}
	case updateKind:
		l.handler.OnUpdate(n.oldObj, n.newObj)
	case deleteKind:
		l.handler.OnDelete(n.oldObj)
	}
}

// claimResync reports whether the listener is due for a resync at now and,
// if so, schedules the next one a resync period later.
func (l *processorListener) claimResync(now time.Time) bool {
	l.lock.Lock()
	defer l.lock.Unlock()
	due := l.resyncPeriod != 0 && !now.Before(l.nextResync)
	if due {
		l.nextResync = now.Add(l.resyncPeriod)
	}
	return due
}

func (l *processorListener) setResyncPeriod(period time.Duration) {
	l.lock.Lock()
	defer l.lock.Unlock()
	l.resyncPeriod = period
}
