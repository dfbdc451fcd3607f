package record

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/tools/record/util"
	"github.com/kubeclient/client-go/tools/reference"
)

// EventRecorder records events on behalf of one event source.
type EventRecorder interface {
	// Event records an event about object, which may be an object or an
	// *v1.ObjectReference. eventtype is Normal or Warning; reason is a
	// short UpperCamelCase word for machines; message is for humans. The
	// event is created in the object's namespace.
	Event(object runtime.Object, eventtype, reason, message string)

	// Eventf is Event with a Sprintf-formatted message.
	Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{})

	// AnnotatedEventf is Eventf that also sets the event's annotations.
	AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{})
}

// EventRecorderLogger is an EventRecorder whose diagnostics go to a chosen
// logger rather than the global one.
type EventRecorderLogger interface {
	EventRecorder

	// WithLogger returns a recorder that logs to logger. It is cheap and
	// meant for contextual logging, e.g.
	// recorder.WithLogger(klog.FromContext(ctx)).Eventf(...).
	WithLogger(logger klog.Logger) EventRecorderLogger
}

// recorderImpl builds events and hands them to the broadcaster.
type recorderImpl struct {
	scheme *runtime.Scheme
	source v1.EventSource
	*watch.Broadcaster
	clock clock.PassiveClock
}

func (recorder *recorderImpl) generateEvent(logger klog.Logger, object runtime.Object, annotations map[string]string, eventtype, reason, message string) {
	ref, err := reference.GetReference(recorder.scheme, object)
	if err != nil {
		logger.Error(err, "Could not construct reference, will not report event", "object", object, "eventType", eventtype, "reason", reason, "message", message)
		return
	}
	if !util.ValidateEventType(eventtype) {
		logger.Error(nil, "Unsupported event type", "eventType", eventtype)
		return
	}
	event := recorder.makeEvent(ref, annotations, eventtype, reason, message)
	// Recording must not block; a full queue drops the event. Sending
	// synchronously (not in a goroutine) avoids racing with Shutdown.
	sent, err := recorder.ActionOrDrop(watch.Added, event)
	if err != nil {
		logger.Error(err, "Unable to record event (will not retry!)")
		return
	}
	if !sent {
		logger.Error(nil, "Unable to record event: too many queued events, dropped event", "event", event)
	}
}

func (recorder *recorderImpl) makeEvent(ref *v1.ObjectReference, annotations map[string]string, eventtype, reason, message string) *v1.Event {
	t := metav1.Time{Time: recorder.clock.Now()}
	namespace := ref.Namespace
	if namespace == "" {
		namespace = metav1.NamespaceDefault
	}
	return &v1.Event{
		ObjectMeta: metav1.ObjectMeta{
			Name:        util.GenerateEventName(ref.Name, t.UnixNano()),
			Namespace:   namespace,
			Annotations: annotations,
		},
		InvolvedObject:      *ref,
		Reason:              reason,
		Message:             message,
		FirstTimestamp:      t,
		LastTimestamp:       t,
		Count:               1,
		Type:                eventtype,
		Source:              recorder.source,
		ReportingController: recorder.source.Component,
		ReportingInstance:   recorder.source.Host,
	}
}

// recorderImplLogger is the EventRecorderLogger NewRecorder returns.
type recorderImplLogger struct {
	*recorderImpl
	logger klog.Logger
}

var _ EventRecorderLogger = &recorderImplLogger{}

func (r *recorderImplLogger) Event(object runtime.Object, eventtype, reason, message string) {
	r.generateEvent(r.logger, object, nil, eventtype, reason, message)
}

func (r *recorderImplLogger) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{}) {
	r.Event(object, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

func (r *recorderImplLogger) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
	r.generateEvent(r.logger, object, annotations, eventtype, reason, fmt.Sprintf(messageFmt, args...))
}

func (r *recorderImplLogger) WithLogger(logger klog.Logger) EventRecorderLogger {
	return &recorderImplLogger{recorderImpl: r.recorderImpl, logger: logger}
}
