package record

import (
	"cmp"
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

// generateEvent builds the event and queues it without blocking. Problems
// are logged, never returned: recording an event must not fail the caller.
func (recorder *recorderImpl) generateEvent(logger klog.Logger, object runtime.Object, annotations map[string]string, eventtype, reason, message string) {
	if event := recorder.eventFor(logger, object, annotations, eventtype, reason, message); event != nil {
		recorder.queue(logger, event)
	}
}

// eventFor returns the event to record, or nil (after logging why) when
// object has no reference or eventtype is not Normal or Warning.
func (recorder *recorderImpl) eventFor(logger klog.Logger, object runtime.Object, annotations map[string]string, eventtype, reason, message string) *v1.Event {
	ref, err := reference.GetReference(recorder.scheme, object)
	switch {
	case err != nil:
		logger.Error(err, "Could not construct reference, will not report event", "object", object, "eventType", eventtype, "reason", reason, "message", message)
		return nil
	case !util.ValidateEventType(eventtype):
		logger.Error(nil, "Unsupported event type", "eventType", eventtype)
		return nil
	}
	return recorder.makeEvent(ref, annotations, eventtype, reason, message)
}

// queue hands event to the broadcaster. Recording must not block, so a
// full queue drops the event; the send is synchronous (not in a goroutine)
// so that it cannot race with Shutdown.
func (recorder *recorderImpl) queue(logger klog.Logger, event *v1.Event) {
	sent, err := recorder.ActionOrDrop(watch.Added, event)
	switch {
	case err != nil:
		logger.Error(err, "Unable to record event (will not retry!)")
	case !sent:
		logger.Error(nil, "Unable to record event: too many queued events, dropped event", "event", event)
	}
}

// makeEvent returns a new event (count 1) about ref, in ref's namespace or
// the default one, from this recorder's source.
func (recorder *recorderImpl) makeEvent(ref *v1.ObjectReference, annotations map[string]string, eventtype, reason, message string) *v1.Event {
	now := metav1.NewTime(recorder.clock.Now())
	event := &v1.Event{
		InvolvedObject:      *ref,
		Type:                eventtype,
		Reason:              reason,
		Message:             message,
		Source:              recorder.source,
		ReportingController: recorder.source.Component,
		ReportingInstance:   recorder.source.Host,
		Count:               1,
		FirstTimestamp:      now,
		LastTimestamp:       now,
	}
	event.Name = util.GenerateEventName(ref.Name, now.UnixNano())
	event.Namespace = cmp.Or(ref.Namespace, metav1.NamespaceDefault)
	event.Annotations = annotations
	return event
}

// recorderImpl builds events and hands them to the broadcaster.
type recorderImpl struct {
	*watch.Broadcaster
	scheme *runtime.Scheme
	source v1.EventSource
	clock  clock.PassiveClock
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
