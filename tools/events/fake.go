package events

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// FakeRecorder records events as strings on a channel, for tests. It is
// safe for concurrent use; one built by hand with a nil Events channel
// discards everything.
type FakeRecorder struct {
	// Events receives "<type> <reason> <note>" per event; with Verbose it
	// receives "<type> <reason> <action> <note>" followed by the kinds of
	// the regarding and related objects and any annotations.
	Events  chan string
	Verbose bool
}

var _ EventRecorderLogger = &FakeRecorder{}

// NewFakeRecorder returns a FakeRecorder whose channel buffers bufferSize
// events. Recording blocks when the buffer is full.
func NewFakeRecorder(bufferSize int) *FakeRecorder {
	return &FakeRecorder{Events: make(chan string, bufferSize)}
}

// Eventf records an event.
func (f *FakeRecorder) Eventf(regarding runtime.Object, related runtime.Object, eventtype, reason, action, note string, args ...interface{}) {
	f.write(regarding, related, nil, eventtype, reason, action, note, args...)
}

// AnnotatedEventf records an event with annotations.
func (f *FakeRecorder) AnnotatedEventf(regarding runtime.Object, related runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...interface{}) {
	f.write(regarding, related, annotations, eventtype, reason, action, note, args...)
}

func (f *FakeRecorder) WithLogger(logger klog.Logger) EventRecorderLogger {
	return f
}

func (f *FakeRecorder) write(regarding, related runtime.Object, annotations map[string]string, eventtype, reason, action, note string, args ...interface{}) {
	if f.Events == nil {
		return
	}
	if !f.Verbose {
		f.Events <- fmt.Sprintf(eventtype+" "+reason+" "+note, args...)
		return
	}
	line := eventtype + " " + reason + " " + action + " " + fmt.Sprintf(note, args...) + kindString(regarding) + kindString(related)
	if len(annotations) > 0 {
		line += " " + fmt.Sprint(annotations)
	}
	f.Events <- line
}

// kindString is " {kind=K,apiVersion=V}" for an object with type meta and
// "" otherwise.
func kindString(object runtime.Object) string {
	if object == nil {
		return ""
	}
	gvk := object.GetObjectKind().GroupVersionKind()
	if gvk.Empty() {
		return ""
	}
	return fmt.Sprintf(" {kind=%s,apiVersion=%s}", gvk.Kind, gvk.GroupVersion())
}
