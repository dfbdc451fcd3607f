package record

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	internalevents "github.com/kubeclient/client-go/tools/internal/events"
)

// EventRecorderAdapter lets a core/v1 EventRecorderLogger serve as an
// events.k8s.io EventRecorder (package tools/events). The related object
// and the action have no core/v1 counterpart and are dropped.
type EventRecorderAdapter struct {
	recorder EventRecorderLogger
}

var _ internalevents.EventRecorderLogger = &EventRecorderAdapter{}

// NewEventRecorderAdapter wraps recorder.
func NewEventRecorderAdapter(recorder EventRecorderLogger) *EventRecorderAdapter {
	return &EventRecorderAdapter{recorder: recorder}
}

// Eventf records note about regarding through the wrapped recorder.
func (a *EventRecorderAdapter) Eventf(regarding, _ runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	a.recorder.Eventf(regarding, eventtype, reason, note, args...)
}

// AnnotatedEventf records note with annotations through the wrapped
// recorder.
func (a *EventRecorderAdapter) AnnotatedEventf(regarding, _ runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...interface{}) {
	a.recorder.AnnotatedEventf(regarding, annotations, eventtype, reason, note, args...)
}

// WithLogger returns an adapter whose recorder logs to logger.
func (a *EventRecorderAdapter) WithLogger(logger klog.Logger) internalevents.EventRecorderLogger {
	return &EventRecorderAdapter{recorder: a.recorder.WithLogger(logger)}
}
