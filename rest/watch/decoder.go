package watch

import (
	"bytes"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
)

// protobufPrefix starts every Kubernetes protobuf object ("k8s\x00").
var protobufPrefix = []byte{0x6b, 0x38, 0x73, 0x00}

// Decoder reads watch events from a stream of metav1.WatchEvent frames. The
// frames are decoded by a streaming decoder, the object inside each event by
// the embedded decoder. It implements watch.Decoder.
type Decoder struct {
	decoder         streaming.Decoder
	embeddedDecoder runtime.Decoder
	// raw is the storage of the last protobuf frame's object bytes, which
	// the next frame may be decoded into; see Decode.
	raw []byte
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
	// The frame decoder may copy the object's bytes into the storage the
	// event brings (the protobuf one of internal/wirecodec does); the
	// decoded objects never alias them.
	frame := metav1.WatchEvent{Object: runtime.RawExtension{Raw: d.raw[:0]}}
	d.raw = nil
	got, _, err := d.decoder.Decode(nil, &frame)
	if err != nil {
		return "", nil, err
	}
	if got != &frame {
		return "", nil, fmt.Errorf("unable to decode to metav1.WatchEvent")
	}
	raw := frame.Object.Raw
	if len(raw) == 0 {
		// As from a new event: no bytes is nil bytes.
		raw = nil
	}

	eventType := watch.EventType(frame.Type)
	switch eventType {
	case watch.Added, watch.Modified, watch.Deleted, watch.Error, watch.Bookmark:
	default:
		return "", nil, fmt.Errorf("got invalid watch event type: %v", frame.Type)
	}

	obj, err := runtime.Decode(d.embeddedDecoder, raw)
	if err != nil {
		return "", nil, fmt.Errorf("unable to decode watch event: %v", err)
	}
	if bytes.HasPrefix(raw, protobufPrefix) {
		// Protobuf objects are decoded into fresh memory (strings and
		// bytes copied), so the storage can serve the next frame. Other
		// formats get new storage each frame: their decoders may keep
		// the bytes (runtime.Unknown).
		d.raw = raw
	}
	return eventType, obj, nil
}

// Close closes the underlying stream.
func (d *Decoder) Close() {
	d.decoder.Close()
}
