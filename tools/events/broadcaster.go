package events

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	restclient "github.com/kubeclient/client-go/rest"
	internalevents "github.com/kubeclient/client-go/tools/internal/events"
	"github.com/kubeclient/client-go/tools/record/util"
)

// How series of isomorphic events are kept and written.
const (
	// refreshTime is how often the counts of open series are written.
	refreshTime = 30 * time.Minute
	// finishTime is how long a series may go without a new occurrence
	// before it is finished and forgotten.
	finishTime = 6 * time.Minute
)

// How events are queued and written.
const (
	// maxQueuedEvents is how many events are buffered before new ones are
	// dropped.
	maxQueuedEvents = 1000
	// maxTriesPerEvent is how often one event is tried before it is given
	// up.
	maxTriesPerEvent = 12
)

// defaultSleepDuration is the wait between tries to write an event.
var defaultSleepDuration = 10 * time.Second

// eventKey identifies isomorphic events: events about the same objects,
// from the same reporter, of the same type, action and reason, which
// differ only in time and note, are counted in one series.
type eventKey struct {
	regarding, related                     corev1.ObjectReference
	reportingController, reportingInstance string
	eventType, action, reason              string
}

func getKey(event *eventsv1.Event) eventKey {
	var related corev1.ObjectReference
	if event.Related != nil {
		related = *event.Related
	}
	return eventKey{
		regarding: event.Regarding, related: related,
		reportingController: event.ReportingController, reportingInstance: event.ReportingInstance,
		eventType: event.Type, action: event.Action, reason: event.Reason,
	}
}

// eventBroadcasterImpl delivers events through a watch.Broadcaster and
// writes them to sink, folding isomorphic events into series.
type eventBroadcasterImpl struct {
	*watch.Broadcaster

	// mu guards eventCache: the last event written per key, whose Series
	// (if any) counts the repeats seen since.
	mu         sync.Mutex
	eventCache map[eventKey]*eventsv1.Event

	sleepDuration time.Duration
	sink          EventSink
	clock         clock.Clock
}

// NewBroadcaster returns a broadcaster that writes to sink.
func NewBroadcaster(sink EventSink) EventBroadcaster {
	return newBroadcaster(sink, defaultSleepDuration, clock.RealClock{})
}

func newBroadcaster(sink EventSink, sleepDuration time.Duration, clk clock.Clock) *eventBroadcasterImpl {
	e := &eventBroadcasterImpl{sink: sink, sleepDuration: sleepDuration, clock: clk}
	e.Broadcaster = watch.NewLongQueueBroadcaster(maxQueuedEvents, watch.DropIfChannelFull)
	e.eventCache = map[eventKey]*eventsv1.Event{}
	return e
}

// Shutdown, from the embedded watch.Broadcaster, stops delivering events.

// refreshExistingEventSeries writes the current count of every open series
// and keeps the stored copy the server returns.
func (e *eventBroadcasterImpl) refreshExistingEventSeries(ctx context.Context) {
	e.sweep(func(key eventKey, event *eventsv1.Event) {
		if event.Series == nil {
			return
		}
		stored, retry := recordEvent(ctx, e.sink, event)
		if stored != nil && !retry {
			e.eventCache[key] = stored
		}
	})
}

// sweep calls visit for every cached event, holding e.mu; visit may change
// or delete the entry it is given.
func (e *eventBroadcasterImpl) sweep(visit func(key eventKey, event *eventsv1.Event)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for key, event := range e.eventCache {
		visit(key, event)
	}
}

// finishSeries writes the final count of series that saw no occurrence for
// finishTime and forgets them, and forgets single events older than that.
func (e *eventBroadcasterImpl) finishSeries(ctx context.Context) {
	cutoff := e.clock.Now().Add(-finishTime)
	e.sweep(func(key eventKey, event *eventsv1.Event) {
		switch {
		case event.Series == nil:
			if event.EventTime.Time.Before(cutoff) {
				delete(e.eventCache, key)
			}
		case event.Series.LastObservedTime.Time.Before(cutoff):
			if _, retry := recordEvent(ctx, e.sink, event); !retry {
				delete(e.eventCache, key)
			}
		}
	})
}

func (e *eventBroadcasterImpl) NewRecorder(scheme *runtime.Scheme, reportingController string) EventRecorderLogger {
	hostname, _ := os.Hostname()
	return &recorderImplLogger{
		recorderImpl: &recorderImpl{
			scheme:              scheme,
			reportingController: reportingController,
			reportingInstance:   reportingController + "-" + hostname,
			Broadcaster:         e.Broadcaster,
			clock:               clock.RealClock{},
		},
		logger: klog.Background(),
	}
}

// recordToSink writes event, or counts it in the series of an isomorphic
// event already written. The write happens in its own goroutine.
func (e *eventBroadcasterImpl) recordToSink(ctx context.Context, event *eventsv1.Event) {
	// Other watchers share event: keep a private copy.
	own := event.DeepCopy()
	toWrite := func() *eventsv1.Event {
		e.mu.Lock()
		defer e.mu.Unlock()
		key := getKey(own)
		seen, ok := e.eventCache[key]
		if !ok {
			e.eventCache[key] = own
			return own.DeepCopy()
		}
		now := metav1.MicroTime{Time: e.clock.Now()}
		if seen.Series != nil {
			// The periodic refresh writes the new count.
			seen.Series.Count++
			seen.Series.LastObservedTime = now
			return nil
		}
		seen.Series = &eventsv1.EventSeries{Count: 2, LastObservedTime: now}
		return seen.DeepCopy()
	}()
	if toWrite != nil {
		go e.attemptRecording(ctx, toWrite)
	}
}

// attemptRecording writes event, retrying transport failures.
func (e *eventBroadcasterImpl) attemptRecording(ctx context.Context, event *eventsv1.Event) {
	logger := klog.FromContext(ctx)
	for tries := 1; ; tries++ {
		if _, retry := recordEvent(ctx, e.sink, event); !retry {
			return
		}
		if tries >= maxTriesPerEvent {
			logger.Error(nil, "Unable to write event (retry limit exceeded!)", "event", event)
			return
		}
		delay := e.sleepDuration
		if tries == 1 {
			// Spread the first retry so that clients do not retry in step.
			delay = time.Duration(float64(delay) * rand.Float64())
		}
		t := e.clock.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// recordEvent patches the series of event, or creates event when it has no
// series or its stored copy is gone. retry reports whether a failure may
// clear up.
func recordEvent(ctx context.Context, sink EventSink, event *eventsv1.Event) (stored *eventsv1.Event, retry bool) {
	logger := klog.FromContext(ctx)
	var err error
	isSeries := event.Series != nil
	if isSeries {
		patch, patchErr := createPatchBytesForSeries(event)
		if patchErr != nil {
			logger.Error(patchErr, "Unable to calculate diff, no merge is possible")
			return nil, false
		}
		stored, err = sink.Patch(ctx, event, patch)
	}
	if !isSeries || util.IsKeyNotFoundError(err) {
		event.ResourceVersion = ""
		stored, err = sink.Create(ctx, event)
	}
	if err == nil {
		return stored, false
	}
	var (
		constructionErr *restclient.RequestConstructionError
		statusErr       *apierrors.StatusError
	)
	switch {
	case errors.As(err, &constructionErr):
		logger.Error(err, "Unable to construct event (will not retry!)", "event", event)
		return nil, false
	case errors.As(err, &statusErr):
		if apierrors.IsAlreadyExists(err) {
			logger.V(5).Info("Server rejected event (will not retry!)", "event", event, "err", err)
		} else {
			logger.Error(err, "Server rejected event (will not retry!)", "event", event)
		}
		return nil, false
	}
	logger.Error(err, "Unable to write event (may retry after sleeping)", "event", event)
	return nil, true
}

// createPatchBytesForSeries returns the patch that sets event's series on
// its stored copy.
func createPatchBytesForSeries(event *eventsv1.Event) ([]byte, error) {
	stored := event.DeepCopy()
	stored.Series = nil
	return mergePatch(stored, event)
}

// mergePatch returns the two-way strategic merge patch from before to
// after.
func mergePatch(before, after *eventsv1.Event) ([]byte, error) {
	beforeJSON, beforeErr := json.Marshal(before)
	afterJSON, afterErr := json.Marshal(after)
	if err := errors.Join(beforeErr, afterErr); err != nil {
		return nil, err
	}
	return internalevents.CreateTwoWayMergePatch(beforeJSON, afterJSON)
}

func (e *eventBroadcasterImpl) StartEventWatcher(eventHandler func(event runtime.Object)) (func(), error) {
	return e.startEventWatcher(klog.Background(), eventHandler)
}

// startEventWatcher calls eventHandler, in one goroutine, for every event
// until the returned stop function is called or the broadcaster shuts down.
func (e *eventBroadcasterImpl) startEventWatcher(logger klog.Logger, eventHandler func(event runtime.Object)) (func(), error) {
	watcher, err := e.Watch()
	if err == nil {
		go deliver(logger, watcher.ResultChan(), eventHandler)
		return watcher.Stop, nil
	}
	return nil, err
}

// deliver passes the object of every event on events to handler until the
// channel closes; a panic in handler is logged and ends delivery.
func deliver(logger klog.Logger, events <-chan watch.Event, handler func(runtime.Object)) {
	defer utilruntime.HandleCrashWithLogger(logger)
	for event := range events {
		handler(event.Object)
	}
}

func (e *eventBroadcasterImpl) StartStructuredLogging(verbosity klog.Level) func() {
	logger := klog.Background().V(int(verbosity))
	stop, err := e.StartLogging(logger)
	if err != nil {
		logger.Error(err, "Failed to start event watcher")
		stop = func() {}
	}
	return stop
}

func (e *eventBroadcasterImpl) StartLogging(logger klog.Logger) (func(), error) {
	return e.startEventWatcher(logger, eventsOnly(logger, func(event *eventsv1.Event) {
		ref := event.Regarding
		logger.Info("Event occurred",
			"object", klog.KRef(ref.Namespace, ref.Name), "kind", ref.Kind, "apiVersion", ref.APIVersion,
			"type", event.Type, "reason", event.Reason, "action", event.Action, "note", event.Note)
	}))
}

// eventsOnly adapts handle to the objects of a watch, logging objects
// that are not events.
func eventsOnly(logger klog.Logger, handle func(*eventsv1.Event)) func(runtime.Object) {
	return func(obj runtime.Object) {
		if event, ok := obj.(*eventsv1.Event); ok {
			handle(event)
			return
		}
		logger.Error(nil, "unexpected type, expected eventsv1.Event")
	}
}

func (e *eventBroadcasterImpl) StartRecordingToSink(stopCh <-chan struct{}) {
	if err := e.StartRecordingToSinkWithContext(wait.ContextForChannel(stopCh)); err != nil {
		klog.Background().Error(err, "Failed to start recording to sink")
	}
}

func (e *eventBroadcasterImpl) StartRecordingToSinkWithContext(ctx context.Context) error {
	stopWatching, err := e.StartEventWatcher(eventsOnly(klog.FromContext(ctx), func(event *eventsv1.Event) {
		e.recordToSink(ctx, event)
	}))
	if err != nil {
		return err
	}
	// Three goroutines end with ctx: the two series loops, and one that
	// then stops the event watcher.
	go e.every(ctx, refreshTime, e.refreshExistingEventSeries)
	go e.every(ctx, finishTime, e.finishSeries)
	context.AfterFunc(ctx, stopWatching)
	return nil
}

// every calls f every period of the broadcaster's clock until ctx ends.
func (e *eventBroadcasterImpl) every(ctx context.Context, period time.Duration, f func(context.Context)) {
	for {
		t := e.clock.NewTimer(period)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
			f(ctx)
		}
	}
}
