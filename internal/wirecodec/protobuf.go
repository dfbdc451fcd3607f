package wirecodec

import (
	"bytes"
	"io"

	"github.com/kubeclient/client-go/internal/protodecode"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// protobufPrefix starts every Kubernetes protobuf document ("k8s\x00").
var protobufPrefix = []byte{0x6b, 0x38, 0x73, 0x00}

// ProtobufSerializer is apimachinery's protobuf serializer with a decoder
// that reads the runtime.Unknown envelope of a document in place: the
// reference decodes it into a runtime.Unknown, copying the object's bytes
// (for a LIST, the whole list) before the object decodes them. Envelopes
// that are not plain (unknown or repeated fields, malformed input) and
// runtime.Unknown or unregistered targets are left to the reference, as
// are the object's own decoding errors.
type ProtobufSerializer struct {
	ref     runtime.Serializer
	typer   runtime.ObjectTyper
	creater runtime.ObjectCreater
	kinds   kindCache
}

var _ runtime.Serializer = &ProtobufSerializer{}

// NewProtobufSerializer puts the fast decoder in front of ref, which must be
// protobuf.NewSerializer(creater, typer).
func NewProtobufSerializer(ref runtime.Serializer, typer runtime.ObjectTyper, creater runtime.ObjectCreater) *ProtobufSerializer {
	return &ProtobufSerializer{ref: ref, typer: typer, creater: creater}
}

// Encode encodes with the reference.
func (s *ProtobufSerializer) Encode(obj runtime.Object, w io.Writer) error {
	return s.ref.Encode(obj, w)
}

// Identifier is the reference's.
func (s *ProtobufSerializer) Identifier() runtime.Identifier { return s.ref.Identifier() }

// protoUnmarshaler is what generated protobuf types implement.
type protoUnmarshaler interface {
	Reset()
	Unmarshal([]byte) error
}

// Decode decodes data as the reference does.
func (s *ProtobufSerializer) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return s.decode(data, defaults, into, protodecode.CacheDecode{})
}

// decode decodes data as the reference does, for an informer's cache as
// c says (see protodecode.IntoCache).
func (s *ProtobufSerializer) decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object, c protodecode.CacheDecode) (runtime.Object, *schema.GroupVersionKind, error) {
	if obj, actual, ok := s.decodeFast(data, defaults, into, c); ok {
		return obj, actual, nil
	}
	return s.ref.Decode(data, defaults, into)
}

// decodeFast follows the reference's steps for a typed target registered
// with the typer, or none. ok is false when the reference must decode; into
// is then untouched, or reset and partly decoded, which the reference's own
// reset undoes.
func (s *ProtobufSerializer) decodeFast(data []byte, defaults *schema.GroupVersionKind, into runtime.Object, c protodecode.CacheDecode) (runtime.Object, *schema.GroupVersionKind, bool) {
	if _, isUnknown := into.(*runtime.Unknown); isUnknown || len(data) == len(protobufPrefix) || !bytes.HasPrefix(data, protobufPrefix) {
		return nil, nil, false
	}
	env, ok := parseUnknown(data[len(protobufPrefix):])
	if !ok {
		return nil, nil, false
	}
	// As schema.FromAPIVersionAndKind: no group version when it does not
	// parse.
	gv, _, kind := s.kinds.lookup(env.apiVersion, env.kind)
	actual := gv.WithKind(kind)
	applyProtobufDefaults(&actual, defaults)
	if into != nil {
		kinds, _, err := s.typer.ObjectKinds(into)
		if err != nil {
			return nil, nil, false
		}
		applyProtobufDefaults(&actual, &kinds[0])
		if actual.Version == "" && actual.Group == "" {
			actual.Group = kinds[0].Group
		}
	}
	if actual.Kind == "" || actual.Version == "" {
		return nil, nil, false
	}
	obj, err := runtime.UseOrCreateObject(s.typer, s.creater, actual, into)
	if err != nil {
		return nil, nil, false
	}
	target, ok := obj.(protoUnmarshaler)
	if !ok {
		return nil, nil, false
	}
	if obj == into {
		target.Reset() // a new object is zero already
	}
	if handled, err := protodecode.IntoCache(env.raw, obj, c, obj != into); !handled || err != nil {
		// No generated decoder, or input it leaves to the reference:
		// the type's own Unmarshal on a reset object, as the reference.
		if handled {
			target.Reset()
		}
		if err := target.Unmarshal(env.raw); err != nil {
			return nil, nil, false
		}
	}
	obj.GetObjectKind().SetGroupVersionKind(actual)
	return obj, &actual, true
}

// applyProtobufDefaults fills what gvk lacks from defaults as the protobuf
// serializer does: a missing kind; a missing version, with its group, when
// defaults has one.
func applyProtobufDefaults(gvk, defaults *schema.GroupVersionKind) {
	if defaults == nil {
		return
	}
	if gvk.Kind == "" {
		gvk.Kind = defaults.Kind
	}
	if gvk.Version == "" && defaults.Version != "" {
		gvk.Group, gvk.Version = defaults.Group, defaults.Version
	}
}

// unknownEnvelope is a runtime.Unknown read in place.
type unknownEnvelope struct {
	apiVersion, kind []byte
	raw              []byte
}

// Field numbers of runtime.Unknown and of its TypeMeta.
const (
	unknownTypeMeta        = 1
	unknownRaw             = 2
	unknownContentEncoding = 3
	unknownContentType     = 4
	typeMetaAPIVersion     = 1
	typeMetaKind           = 2
)

// parseUnknown reads a runtime.Unknown whose fields are all known, each at
// most once and length-delimited. ok is false for anything else.
func parseUnknown(data []byte) (env unknownEnvelope, ok bool) {
	var seen [5]bool
	for len(data) > 0 {
		field, value, rest, ok := nextLengthDelimited(data)
		if !ok || field < 1 || field > 4 || seen[field] {
			return unknownEnvelope{}, false
		}
		seen[field] = true
		data = rest
		switch field {
		case unknownTypeMeta:
			if env.apiVersion, env.kind, ok = parseTypeMeta(value); !ok {
				return unknownEnvelope{}, false
			}
		case unknownRaw:
			env.raw = value
		}
	}
	return env, true
}

// parseTypeMeta reads a TypeMeta message with known fields only.
func parseTypeMeta(data []byte) (apiVersion, kind []byte, ok bool) {
	var seen [3]bool
	for len(data) > 0 {
		field, value, rest, ok := nextLengthDelimited(data)
		if !ok || field < 1 || field > 2 || seen[field] {
			return nil, nil, false
		}
		seen[field] = true
		data = rest
		if field == typeMetaAPIVersion {
			apiVersion = value
		} else {
			kind = value
		}
	}
	return apiVersion, kind, true
}

// nextLengthDelimited reads one length-delimited field from data.
func nextLengthDelimited(data []byte) (field int, value, rest []byte, ok bool) {
	key, n := uvarint(data)
	if n == 0 || key&7 != 2 || key>>3 > 1<<29 {
		return 0, nil, nil, false
	}
	data = data[n:]
	length, n := uvarint(data)
	if n == 0 || length > uint64(len(data)-n) {
		return 0, nil, nil, false
	}
	data = data[n:]
	return int(key >> 3), data[:length], data[length:], true
}

// uvarint decodes a base-128 varint of at most 10 bytes; n is 0 when data
// holds none.
func uvarint(data []byte) (v uint64, n int) {
	for i, b := range data {
		if i == 10 {
			return 0, 0
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}
