package watch

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
)

// Decoder reads watch events from a stream of metav1.WatchEvent frames. The
// frames are decoded by a streaming decoder, the object inside each event by
// the embedded decoder. It implements watch.Decoder.
type Decoder struct {
	decoder         streaming.Decoder
	embeddedDecoder runtime.Decoder
}

var _ watch.Decoder = &Decoder{}

// NewDecoder returns a Decoder reading frames from decoder and decoding the
// objects they carry with embeddedDecoder.
func NewDecoder(decoder streaming.Decoder, embeddedDecoder runtime.Decoder) *Decoder {
	return &Decoder{decoder: decoder, embeddedDecoder: embeddedDecoder}
}

// Decode blocks until the next event arrives and returns it. It fails when
// the stream ends or breaks, when a frame is not a WatchEvent, when the event
// type is unknown, or when the object cannot be decoded. Errors of the
// stream are returned as they are: io.EOF for a stream that ended between
// events. rest.Request.Watch reads JSON and protobuf streams so that a
// stream cut inside an event fails with an error that a
// watch.StreamWatcher turns into a watch.Error event rather than a silent
// end.
func (d *Decoder) Decode() (watch.EventType, runtime.Object, error) {
	var frame metav1.WatchEvent
	got, _, err := d.decoder.Decode(nil, &frame)
	if err != nil {
		return "", nil, err
	}
	if got != &frame {
		return "", nil, fmt.Errorf("unable to decode to metav1.WatchEvent")
	}

	eventType := watch.EventType(frame.Type)
	switch eventType {
	case watch.Added, watch.Modified, watch.Deleted, watch.Error, watch.Bookmark:
	default:
		return "", nil, fmt.Errorf("got invalid watch event type: %v", frame.Type)
	}

	obj, err := runtime.Decode(d.embeddedDecoder, frame.Object.Raw)
	if err != nil {
		return "", nil, fmt.Errorf("unable to decode watch event: %v", err)
	}
	return eventType, obj, nil
}

// Close closes the underlying stream.
func (d *Decoder) Close() {
	d.decoder.Close()
}
