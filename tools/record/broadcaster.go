package record

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/tools/record/util"
)

// maxTriesPerEvent is how often the broadcaster tries to write one event
// to a sink before dropping it.
const maxTriesPerEvent = 12

// defaultSleepDuration is the wait between tries; the first wait is a
// random fraction of it so that clients do not retry in step.
var defaultSleepDuration = 10 * time.Second

// maxQueuedEvents is how many events the broadcaster buffers before it
// starts dropping new ones.
const maxQueuedEvents = 1000

// EventSink stores events; the core/v1 typed events client provides one.
// A sink must honour the namespace embedded in each event and return the
// REST client's error types.
type EventSink interface {
	Create(event *v1.Event) (*v1.Event, error)
	Update(event *v1.Event) (*v1.Event, error)
	Patch(oldEvent *v1.Event, data []byte) (*v1.Event, error)
}

// EventBroadcaster receives events from its recorders and delivers them to
// watchers, logs and sinks.
type EventBroadcaster interface {
	// StartEventWatcher calls eventHandler, in one goroutine, for every
	// event. Stop the returned watch to stop delivery.
	StartEventWatcher(eventHandler func(*v1.Event)) watch.Interface

	// StartRecordingToSink writes every event to sink through an
	// EventCorrelator. Stop the returned watch to stop recording.
	StartRecordingToSink(sink EventSink) watch.Interface

	// StartLogging passes a line for every event to logf. Stop the returned
	// watch to stop logging.
	StartLogging(logf func(format string, args ...interface{})) watch.Interface

	// StartStructuredLogging logs every event at verbosity with the
	// broadcaster's logger. Stop the returned watch to stop logging.
	StartStructuredLogging(verbosity klog.Level) watch.Interface

	// NewRecorder returns a recorder whose events come from source.
	NewRecorder(scheme *runtime.Scheme, source v1.EventSource) EventRecorderLogger

	// Shutdown stops delivery. An event being written to a sink is then
	// tried at most once more before it is given up.
	Shutdown()
}

// BroadcasterOption configures NewBroadcaster.
type BroadcasterOption func(*config)

// config collects the BroadcasterOptions.
type config struct {
	CorrelatorOptions
	context.Context
	sleepDuration time.Duration
}

// WithCorrelatorOptions sets the options of the correlators used by
// StartRecordingToSink.
func WithCorrelatorOptions(options CorrelatorOptions) BroadcasterOption {
	return func(c *config) { c.CorrelatorOptions = options }
}

// WithContext ties the broadcaster to ctx: cancelling ctx shuts it down,
// and ctx's logger is used for its diagnostics.
func WithContext(ctx context.Context) BroadcasterOption {
	return func(c *config) { c.Context = ctx }
}

// WithSleepDuration sets the wait between tries to write an event.
func WithSleepDuration(sleepDuration time.Duration) BroadcasterOption {
	return func(c *config) { c.sleepDuration = sleepDuration }
}

// eventBroadcasterImpl fans events out through a watch.Broadcaster. ctx
// ends when the broadcaster shuts down; every goroutine it starts watches
// ctx.
type eventBroadcasterImpl struct {
	*watch.Broadcaster
	sleepDuration time.Duration
	options       CorrelatorOptions
	ctx           context.Context
	cancel        context.CancelFunc
}

// NewBroadcaster returns a new event broadcaster.
func NewBroadcaster(opts ...BroadcasterOption) EventBroadcaster {
	c := config{sleepDuration: defaultSleepDuration}
	for _, opt := range opts {
		opt(&c)
	}
	parent := c.Context
	if parent == nil {
		parent = context.Background()
	}
	b := &eventBroadcasterImpl{
		Broadcaster:   watch.NewLongQueueBroadcaster(maxQueuedEvents, watch.DropIfChannelFull),
		sleepDuration: c.sleepDuration,
		options:       c.CorrelatorOptions,
	}
	b.ctx, b.cancel = context.WithCancel(parent)
	if parent.Done() != nil {
		// The parent can be cancelled: shut down with it. Shutdown
		// cancels b.ctx too, which ends this goroutine.
		go func() {
			<-b.ctx.Done()
			b.Broadcaster.Shutdown()
		}()
	}
	return b
}

// NewBroadcasterForTests returns a broadcaster that waits sleepDuration
// between tries to write an event.
func NewBroadcasterForTests(sleepDuration time.Duration) EventBroadcaster {
	return NewBroadcaster(WithSleepDuration(sleepDuration))
}

// NewBroadcasterWithCorrelatorOptions returns a broadcaster whose sinks use
// correlators configured by options.
func NewBroadcasterWithCorrelatorOptions(options CorrelatorOptions) EventBroadcaster {
	return NewBroadcaster(WithCorrelatorOptions(options))
}

func (e *eventBroadcasterImpl) Shutdown() {
	e.Broadcaster.Shutdown()
	e.cancel()
}

func (e *eventBroadcasterImpl) StartRecordingToSink(sink EventSink) watch.Interface {
	correlator := NewEventCorrelatorWithOptions(e.options)
	return e.StartEventWatcher(func(event *v1.Event) {
		e.recordToSink(sink, event, correlator)
	})
}

// recordToSink correlates event and writes the result to sink, retrying
// transport failures up to maxTriesPerEvent times.
func (e *eventBroadcasterImpl) recordToSink(sink EventSink, event *v1.Event, correlator *EventCorrelator) {
	// Other watchers share event: work on a copy.
	result, err := correlator.EventCorrelate(event.DeepCopy())
	if err != nil {
		utilruntime.HandleErrorWithContext(e.ctx, err, "Event correlation failed")
	}
	if result == nil || result.Skip {
		return
	}
	logger := klog.FromContext(e.ctx)
	for tries := 1; ; tries++ {
		if writeEvent(e.ctx, sink, result.Event, result.Patch, result.Event.Count > 1, correlator) {
			return
		}
		if tries >= maxTriesPerEvent {
			logger.Error(nil, "Unable to write event (retry limit exceeded!)", "event", result.Event)
			return
		}
		delay := e.sleepDuration
		if tries == 1 {
			delay = time.Duration(float64(delay) * rand.Float64())
		}
		t := time.NewTimer(delay)
		select {
		case <-e.ctx.Done():
			t.Stop()
			logger.Error(nil, "Unable to write event (broadcaster is shut down)", "event", result.Event)
			return
		case <-t.C:
		}
	}
}

// writeEvent patches (for a repeat) or creates event in sink. It returns
// true when the event is done with, written or rejected for good, and false
// when the write may succeed if tried again.
func writeEvent(ctx context.Context, sink EventSink, event *v1.Event, patch []byte, updateExisting bool, correlator *EventCorrelator) bool {
	var (
		stored *v1.Event
		err    error
	)
	if updateExisting {
		stored, err = sink.Patch(event, patch)
	}
	// A repeat whose event is gone from the server is created afresh.
	if !updateExisting || util.IsKeyNotFoundError(err) {
		event.ResourceVersion = ""
		stored, err = sink.Create(event)
	}
	if err == nil {
		correlator.UpdateState(stored)
		return true
	}
	logger := klog.FromContext(ctx)
	var (
		constructionErr *restclient.RequestConstructionError
		statusErr       *apierrors.StatusError
	)
	switch {
	case errors.As(err, &constructionErr):
		logger.Error(err, "Unable to construct event (will not retry!)", "event", event)
		return true
	case errors.As(err, &statusErr):
		if apierrors.IsAlreadyExists(err) || apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause) {
			logger.V(5).Info("Server rejected event (will not retry!)", "event", event, "err", err)
		} else {
			logger.Error(err, "Server rejected event (will not retry!)", "event", event)
		}
		return true
	}
	// Transport failures and unexpected objects may clear up.
	logger.Error(err, "Unable to write event (may retry after sleeping)", "event", event)
	return false
}

func (e *eventBroadcasterImpl) StartLogging(logf func(format string, args ...interface{})) watch.Interface {
	return e.StartEventWatcher(func(ev *v1.Event) {
		logf("Event(%#v): type: '%v' reason: '%v' %v", ev.InvolvedObject, ev.Type, ev.Reason, ev.Message)
	})
}

func (e *eventBroadcasterImpl) StartStructuredLogging(verbosity klog.Level) watch.Interface {
	loggerV := klog.FromContext(e.ctx).V(int(verbosity))
	return e.StartEventWatcher(func(ev *v1.Event) {
		loggerV.Info("Event occurred",
			"object", klog.KRef(ev.InvolvedObject.Namespace, ev.InvolvedObject.Name),
			"fieldPath", ev.InvolvedObject.FieldPath,
			"kind", ev.InvolvedObject.Kind,
			"apiVersion", ev.InvolvedObject.APIVersion,
			"type", ev.Type,
			"reason", ev.Reason,
			"message", ev.Message)
	})
}

func (e *eventBroadcasterImpl) StartEventWatcher(eventHandler func(*v1.Event)) watch.Interface {
	watcher, err := e.Watch()
	if err != nil {
		// The broadcaster is shut down; hand back a watch that is already
		// closed.
		klog.FromContext(e.ctx).Error(err, "Unable start event watcher (will not retry!)")
		stopped := watch.NewEmptyWatch()
		return stopped
	}
	go func() {
		defer utilruntime.HandleCrashWithContext(e.ctx)
		for {
			select {
			case <-e.ctx.Done():
				watcher.Stop()
				return
			case ev, ok := <-watcher.ResultChan():
				if !ok {
					return
				}
				if event, isEvent := ev.Object.(*v1.Event); isEvent {
					eventHandler(event)
				}
			}
		}
	}()
	return watcher
}

func (e *eventBroadcasterImpl) NewRecorder(scheme *runtime.Scheme, source v1.EventSource) EventRecorderLogger {
	return &recorderImplLogger{
		recorderImpl: &recorderImpl{scheme: scheme, source: source, Broadcaster: e.Broadcaster, clock: clock.RealClock{}},
		logger:       klog.Background(),
	}
}
