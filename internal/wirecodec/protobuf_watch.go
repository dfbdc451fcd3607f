package wirecodec

import (
	"io"

	"github.com/kubeclient/client-go/internal/protodecode/wire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ProtobufStreamSerializer is apimachinery's raw protobuf serializer (the
// one that decodes the length-delimited frames of a protobuf watch
// stream) with a decoder that reads a metav1.WatchEvent frame in place:
// the reference resets the event and copies the object's bytes into a new
// slice; this one copies them into the storage event.Object.Raw already
// has, so a caller that decodes every frame into one event allocates
// nothing per frame. The result is otherwise the reference's. Other
// targets, defaults, and frames it does not read are left to the
// reference.
type ProtobufStreamSerializer struct {
	ref   runtime.Serializer
	typer runtime.ObjectTyper
}

var _ runtime.Serializer = &ProtobufStreamSerializer{}

// NewProtobufStreamSerializer puts the in-place WatchEvent decoder in front
// of ref, which must be protobuf.NewRawSerializer(creater, typer).
func NewProtobufStreamSerializer(ref runtime.Serializer, typer runtime.ObjectTyper) *ProtobufStreamSerializer {
	return &ProtobufStreamSerializer{ref: ref, typer: typer}
}

// Encode encodes with the reference.
func (s *ProtobufStreamSerializer) Encode(obj runtime.Object, w io.Writer) error {
	return s.ref.Encode(obj, w)
}

// Identifier is the reference's.
func (s *ProtobufStreamSerializer) Identifier() runtime.Identifier { return s.ref.Identifier() }

// Decode decodes data as the reference does.
func (s *ProtobufStreamSerializer) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if event, ok := into.(*metav1.WatchEvent); ok && event != nil && defaults == nil && len(data) > 0 {
		if actual, ok := s.watchEventKind(into); ok && decodeProtobufWatchEvent(data, event) {
			return into, &actual, nil
		}
	}
	return s.ref.Decode(data, defaults, into)
}

// watchEventKind is the kind the reference gives a WatchEvent target
// without defaults; ok is false when the reference would fail or decode
// into another object.
func (s *ProtobufStreamSerializer) watchEventKind(into runtime.Object) (schema.GroupVersionKind, bool) {
	kinds, _, err := s.typer.ObjectKinds(into)
	if err != nil || len(kinds) == 0 || kinds[0].Kind == "" || kinds[0].Version == "" {
		return schema.GroupVersionKind{}, false
	}
	return kinds[0], true
}

// decodeProtobufWatchEvent decodes a WatchEvent message into event as a
// reset followed by its Unmarshal would, except that the object's bytes
// are copied into event.Object.Raw's storage. It reports false, leaving
// event untouched, for input the reference would reject.
func decodeProtobufWatchEvent(data []byte, event *metav1.WatchEvent) bool {
	var eventType string
	var raw []byte
	hasRaw := false
	r := wire.NewReader(data)
	for r.More() {
		num, typ, err := r.Key()
		if err != nil {
			return false
		}
		switch num {
		case 1:
			err = wire.SetString(&r, typ, &eventType)
		case 2:
			var object []byte
			if object, err = r.Bytes(typ); err == nil {
				err = rawExtension(object, &raw, &hasRaw)
			}
		default:
			err = r.Skip()
		}
		if err != nil {
			return false
		}
	}
	buf := event.Object.Raw[:0]
	*event = metav1.WatchEvent{Type: eventType}
	if hasRaw {
		event.Object.Raw = append(buf, raw...)
		if event.Object.Raw == nil {
			event.Object.Raw = []byte{}
		}
	}
	return true
}

// rawExtension reads a runtime.RawExtension message: each raw field (1)
// replaces the bytes; other fields are skipped.
func rawExtension(data []byte, raw *[]byte, has *bool) error {
	r := wire.NewReader(data)
	for r.More() {
		num, typ, err := r.Key()
		if err != nil {
			return err
		}
		if num != 1 {
			if err := r.Skip(); err != nil {
				return err
			}
			continue
		}
		b, err := r.Bytes(typ)
		if err != nil {
			return err
		}
		*raw, *has = b, true
	}
	return nil
}
