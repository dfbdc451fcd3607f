package watch

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
)

// Encoder writes watch events as metav1.WatchEvent frames: the object of
// each event is encoded by the embedded encoder, the frame by the streaming
// encoder.
type Encoder struct {
	encoder         streaming.Encoder
	embeddedEncoder runtime.Encoder
}

// NewEncoder returns an Encoder writing frames with encoder and objects
// with embeddedEncoder.
func NewEncoder(encoder streaming.Encoder, embeddedEncoder runtime.Encoder) *Encoder {
	return &Encoder{encoder: encoder, embeddedEncoder: embeddedEncoder}
}

// Encode writes one event. It fails when the object cannot be encoded or the
// writer fails.
func (e *Encoder) Encode(event *watch.Event) error {
	data, err := runtime.Encode(e.embeddedEncoder, event.Object)
	if err != nil {
		return err
	}
	return e.encoder.Encode(&metav1.WatchEvent{
		Type:   string(event.Type),
		Object: runtime.RawExtension{Raw: data},
	})
}
