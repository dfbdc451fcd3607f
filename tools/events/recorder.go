package events

import (
	"cmp"
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/tools/record/util"
	"github.com/kubeclient/client-go/tools/reference"
)

// recorderImpl builds events.k8s.io/v1 events and hands them to the
// broadcaster.
type recorderImpl struct {
	scheme              *runtime.Scheme
	reportingController string
	reportingInstance   string
	*watch.Broadcaster
	clock clock.PassiveClock
}

// recorderImplLogger is the EventRecorderLogger NewRecorder returns.
type recorderImplLogger struct {
	*recorderImpl
	logger klog.Logger
}

var (
	_ EventRecorderLogger    = &recorderImplLogger{}
	_ AnnotatedEventRecorder = &recorderImplLogger{}
)

func (r *recorderImplLogger) Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	r.eventf(r.logger, regarding, related, nil, eventtype, reason, action, note, args...)
}

func (r *recorderImplLogger) AnnotatedEventf(regarding runtime.Object, related runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...interface{}) {
	r.eventf(r.logger, regarding, related, annotations, eventtype, reason, action, note, args...)
}

func (r *recorderImplLogger) WithLogger(logger klog.Logger) EventRecorderLogger {
	return &recorderImplLogger{recorderImpl: r.recorderImpl, logger: logger}
}

// isNil reports whether obj is nil or a typed nil pointer.
func isNil(obj runtime.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func (r *recorderImpl) eventf(logger klog.Logger, regarding, related runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...interface{}) {
	timestamp := metav1.MicroTime{Time: r.clock.Now()}
	message := fmt.Sprintf(note, args...)
	if isNil(regarding) {
		logger.Error(nil, "Could not construct reference, will not report event", "object", regarding, "eventType", eventtype, "reason", reason, "message", message)
		return
	}
	refRegarding, err := reference.GetReference(r.scheme, regarding)
	if err != nil {
		logger.Error(err, "Could not construct reference, will not report event", "object", regarding, "eventType", eventtype, "reason", reason, "message", message)
		return
	}
	var refRelated *corev1.ObjectReference
	if !isNil(related) {
		if refRelated, err = reference.GetReference(r.scheme, related); err != nil {
			logger.V(9).Info("Could not construct reference", "object", related, "err", err)
		}
	}
	if !util.ValidateEventType(eventtype) {
		logger.Error(nil, "Unsupported event type", "eventType", eventtype)
		return
	}
	r.queue(logger, r.makeEvent(refRegarding, refRelated, timestamp, annotations, eventtype, reason, message, action))
}

// queue hands event to the broadcaster. It never blocks the caller: a full
// queue drops the event.
func (r *recorderImpl) queue(logger klog.Logger, event *eventsv1.Event) {
	sent, err := r.ActionOrDrop(watch.Added, event)
	switch {
	case err != nil:
		logger.Error(err, "Unable to record event (will not retry!)")
	case !sent:
		logger.Error(nil, "Unable to record event: too many queued events, dropped event", "event", event)
	}
}

// makeEvent returns a new event about regarding, in its namespace or the
// default one, reported by this recorder.
func (r *recorderImpl) makeEvent(refRegarding, refRelated *corev1.ObjectReference, timestamp metav1.MicroTime, annotations map[string]string, eventtype, reason, message, action string) *eventsv1.Event {
	event := &eventsv1.Event{
		Regarding:           *refRegarding,
		Related:             refRelated,
		Type:                eventtype,
		Reason:              reason,
		Action:              action,
		Note:                message,
		EventTime:           timestamp,
		ReportingController: r.reportingController,
		ReportingInstance:   r.reportingInstance,
	}
	event.Name = util.GenerateEventName(refRegarding.Name, timestamp.UnixNano())
	event.Namespace = cmp.Or(refRegarding.Namespace, metav1.NamespaceDefault)
	event.Annotations = annotations
	return event
}
