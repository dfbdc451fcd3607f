package record

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
)

// FakeRecorder records events as strings on a channel, for tests. It is
// safe for concurrent use. A FakeRecorder built by hand with a nil Events
// channel discards everything.
type FakeRecorder struct {
	// Events receives "<type> <reason> <message>" per event, followed by
	// the object's kind and apiVersion when IncludeObject is set and by the
	// annotations when there are any.
	Events chan string

	IncludeObject bool
}

var _ EventRecorderLogger = &FakeRecorder{}

// NewFakeRecorder returns a FakeRecorder whose channel buffers bufferSize
// events. Recording blocks when the buffer is full.
func NewFakeRecorder(bufferSize int) *FakeRecorder {
	return &FakeRecorder{Events: make(chan string, bufferSize)}
}

func (f *FakeRecorder) Event(object runtime.Object, eventtype, reason, message string) {
	f.write(object, nil, eventtype, reason, "%s", message)
}

func (f *FakeRecorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...interface{}) {
	f.write(object, nil, eventtype, reason, messageFmt, args...)
}

func (f *FakeRecorder) AnnotatedEventf(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
	f.write(object, annotations, eventtype, reason, messageFmt, args...)
}

func (f *FakeRecorder) WithLogger(logger klog.Logger) EventRecorderLogger {
	return f
}

func (f *FakeRecorder) write(object runtime.Object, annotations map[string]string, eventtype, reason, messageFmt string, args ...interface{}) {
	if f.Events == nil {
		return
	}
	line := fmt.Sprintf(eventtype+" "+reason+" "+messageFmt, args...)
	if f.IncludeObject && object != nil {
		gvk := object.GetObjectKind().GroupVersionKind()
		line += fmt.Sprintf(" involvedObject{kind=%s,apiVersion=%s}", gvk.Kind, gvk.GroupVersion())
	}
	if len(annotations) > 0 {
		line += " " + fmt.Sprint(annotations)
	}
	f.Events <- line
}
