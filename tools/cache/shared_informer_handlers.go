package cache

// Handler registration on a sharedIndexInformer: adding a handler (the
// resync period rules, and the replay of the cache to a handler added
// while the informer runs) and removing it.

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/klog/v2"
)

func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	if handler == nil {
		return nil, errors.New("event handler must not be nil")
	}
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handler)
	}
	logger := klog.Background()
	if options.Logger != nil {
		logger = *options.Logger
	}
	resyncPeriod := s.defaultEventHandlerResyncPeriod
	if options.ResyncPeriod != nil {
		resyncPeriod = *options.ResyncPeriod
	}
	resyncPeriod = s.admitResyncPeriodLocked(logger, resyncPeriod)
	l := newProcessListener(logger, handler, resyncPeriod, determineResyncPeriod(resyncPeriod, s.resyncCheckPeriod), s.clock.Now(), s.describe())
	if !s.started {
		s.processor.addListener(l)
		return l, nil
	}
	// The informer runs: hold deltas back while the handler is given a
	// snapshot of the cache, so it misses nothing and sees nothing twice.
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	s.processor.addListener(l)
	for _, item := range s.indexer.List() {
		l.add(notification{kind: addKind, newObj: item, initial: true})
	}
	if s.synced.Load() {
		l.syncTracker.UpstreamHasSynced()
	}
	return l, nil
}

func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	l, ok := handle.(*processorListener)
	if !ok {
		return fmt.Errorf("invalid key type %T", handle)
	}
	s.processor.removeListener(l)
	return nil
}

// ShutDownEventHandler removes the handler like RemoveEventHandler and then
// waits until its goroutine has stopped. It must not be called from the
// handler's own callbacks, which would deadlock.
func ShutDownEventHandler(informer SharedInformer, handle ResourceEventHandlerRegistration) error {
	if err := informer.RemoveEventHandler(handle); err != nil {
		return err
	}
	if l, ok := handle.(*processorListener); ok {
		<-l.done
	}
	return nil
}

// admitResyncPeriodLocked returns the resync period a new handler that
// asked for requested gets; zero (no resyncs) stays zero. A period below
// minimumResyncPeriod is raised to it. A period below the resync check
// period lowers the check period while the informer has not started (the
// handlers added before round their periods to the new one) and is raised
// to the check period afterwards. The caller holds startedLock.
func (s *sharedIndexInformer) admitResyncPeriodLocked(logger klog.Logger, requested time.Duration) time.Duration {
	if requested <= 0 {
		return requested
	}
	period := max(requested, minimumResyncPeriod)
	if period != requested {
		logger.Info("Warning: resync period is too small. Changing it to the minimum allowed value", "resyncPeriod", requested, "minimumResyncPeriod", minimumResyncPeriod)
	}
	switch {
	case period >= s.resyncCheckPeriod:
		return period
	case s.started:
		logger.Info("Warning: resync period is smaller than resync check period and the informer has already started. Changing it to the resync check period", "resyncPeriod", period, "resyncCheckPeriod", s.resyncCheckPeriod)
		return s.resyncCheckPeriod
	}
	s.resyncCheckPeriod = period
	s.processor.resyncCheckPeriodChanged(period)
	return period
}
