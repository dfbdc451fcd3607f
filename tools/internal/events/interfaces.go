package internal

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// EventRecorder records events.k8s.io/v1 events for one reporting
// controller.
type EventRecorder interface {
	// Eventf records an event about regarding, optionally mentioning a
	// related object. eventtype is Normal or Warning; reason and action are
	// short UpperCamelCase words meant for machines; note, formatted with
	// args, is meant for humans.
	Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{})
}

// AnnotatedEventRecorder is an optional extension of EventRecorder that
// attaches annotations to the event it creates. Events are best-effort and
// may be dropped or aggregated, so annotations must not drive control flow.
type AnnotatedEventRecorder interface {
	AnnotatedEventf(regarding runtime.Object, related runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...interface{})
}

// EventRecorderLogger is an EventRecorder whose diagnostics go to a chosen
// logger.
type EventRecorderLogger interface {
	EventRecorder

	// WithLogger returns a recorder that logs to logger. It is cheap and
	// meant for contextual logging.
	WithLogger(logger klog.Logger) EventRecorderLogger
}
