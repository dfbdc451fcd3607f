package events

import (
	"context"

	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	internalevents "github.com/kubeclient/client-go/tools/internal/events"
	"github.com/kubeclient/client-go/tools/record"
)

// EventRecorder records events.k8s.io/v1 events for one reporting
// controller.
type EventRecorder = internalevents.EventRecorder

// EventRecorderLogger is an EventRecorder with a settable logger.
type EventRecorderLogger = internalevents.EventRecorderLogger

// AnnotatedEventRecorder is the optional annotations extension of
// EventRecorder.
type AnnotatedEventRecorder = internalevents.AnnotatedEventRecorder

// EventBroadcaster receives events from its recorders and delivers them to
// a sink, watchers or logs.
type EventBroadcaster interface {
	// StartRecordingToSink writes events to the sink until stopCh closes.
	//
	// Deprecated: use StartRecordingToSinkWithContext instead.
	StartRecordingToSink(stopCh <-chan struct{})

	// StartRecordingToSinkWithContext writes events to the sink until ctx
	// ends.
	StartRecordingToSinkWithContext(ctx context.Context) error

	// NewRecorder returns a recorder reporting as reportingController.
	NewRecorder(scheme *runtime.Scheme, reportingController string) EventRecorderLogger

	// StartEventWatcher calls eventHandler for every event until the
	// returned function is called. Handlers must copy events they keep.
	StartEventWatcher(eventHandler func(event runtime.Object)) (func(), error)

	// StartStructuredLogging logs every event at verbosity.
	//
	// Deprecated: use StartLogging instead.
	StartStructuredLogging(verbosity klog.Level) func()

	// StartLogging logs every event to logger (use logger.V(n) to choose
	// the verbosity) until the returned function is called.
	StartLogging(logger klog.Logger) (func(), error)

	// Shutdown stops the broadcaster.
	Shutdown()
}

// EventSink stores events.k8s.io/v1 events. It must honour the namespace
// embedded in each event and return the REST client's error types.
type EventSink interface {
	Create(ctx context.Context, event *eventsv1.Event) (*eventsv1.Event, error)
	Update(ctx context.Context, event *eventsv1.Event) (*eventsv1.Event, error)
	Patch(ctx context.Context, oldEvent *eventsv1.Event, data []byte) (*eventsv1.Event, error)
}

// EventBroadcasterAdapter eases migration to events.k8s.io: it records
// through the new API when the server serves it and through core/v1 events
// otherwise.
//
// Deprecated: This interface will be removed once migration is completed.
type EventBroadcasterAdapter interface {
	// StartRecordingToSink starts writing recorded events to the server.
	StartRecordingToSink(stopCh <-chan struct{})

	// NewRecorder returns a recorder reporting as name.
	NewRecorder(name string) EventRecorderLogger

	// DeprecatedNewLegacyRecorder returns a core/v1 recorder reporting as
	// name.
	DeprecatedNewLegacyRecorder(name string) record.EventRecorderLogger

	// Shutdown stops both broadcasters.
	Shutdown()
}
