package wirecodec

import (
	"sync/atomic"
	"unsafe"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// negotiatedSerializer is a runtime.NegotiatedSerializer whose media types
// decode through this package's fast decoders wherever the wrapped one
// hands out a serializer the fast decoders have as their reference (see
// foreign.go); everything else, DecoderToVersion and EncoderForVersion
// included, is the wrapped one's, so a caller's conversion, defaulting or
// wrapping decoders still run around the decoders it is given.
type negotiatedSerializer struct {
	runtime.NegotiatedSerializer
	// last maps the media types the wrapped serializer returned last time
	// to their fast form. Replaced, never written, once published.
	last atomic.Pointer[fastInfos]
}

// fastInfos is one answer of the wrapped serializer's SupportedMediaTypes
// and its fast form.
type fastInfos struct {
	in, out []runtime.SerializerInfo
}

// NewNegotiatedSerializer returns ns with its JSON and protobuf decoders
// put behind this package's fast decoders: apimachinery's JSON serializer
// (not YAML, not strict, default meta factory) behind a JSONSerializer,
// its protobuf serializer behind a ProtobufSerializer and its raw protobuf
// stream serializer behind a ProtobufStreamSerializer, each with the typer
// and creater the replaced serializer has. Those decode exactly as the
// serializer they replace (differential tests hold them to it). ns is
// returned as it is when the generated decoders are switched off
// (fastpath.GeneratedDecoders), when it is nil or already wrapped, and when
// none of its serializers is one of those.
//
// The REST client wraps the NegotiatedSerializer of every configuration it
// builds a client from, so every client of this library decodes through
// the fast decoders: generated clientsets, controller-runtime's and a
// user's own CodecFactory alike.
func NewNegotiatedSerializer(ns runtime.NegotiatedSerializer) runtime.NegotiatedSerializer {
	if ns == nil || !fastpath.GeneratedDecoders.On() {
		return ns
	}
	if _, wrapped := ns.(*negotiatedSerializer); wrapped {
		return ns
	}
	in := ns.SupportedMediaTypes()
	out, replaced := fastMediaTypes(in)
	if !replaced {
		return ns
	}
	s := &negotiatedSerializer{NegotiatedSerializer: ns}
	s.last.Store(&fastInfos{in: in, out: out})
	return s
}

// SupportedMediaTypes returns the wrapped serializer's media types with
// the decoders replaced as NewNegotiatedSerializer says. It asks the
// wrapped serializer each time, as a caller of it would, and reuses its
// previous answer when the wrapped one returned the same slice.
func (s *negotiatedSerializer) SupportedMediaTypes() []runtime.SerializerInfo {
	in := s.NegotiatedSerializer.SupportedMediaTypes()
	if last := s.last.Load(); last != nil && sameSlice(last.in, in) {
		return last.out
	}
	out, _ := fastMediaTypes(in)
	s.last.Store(&fastInfos{in: in, out: out})
	return out
}

// sameSlice reports whether a and b are the same slice (not merely equal
// elements).
func sameSlice(a, b []runtime.SerializerInfo) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// fastMediaTypes returns a copy of in with every decoder this package has a
// fast form of replaced by it, and whether there was one.
func fastMediaTypes(in []runtime.SerializerInfo) ([]runtime.SerializerInfo, bool) {
	out := append([]runtime.SerializerInfo(nil), in...)
	replaced := false
	for i := range out {
		info := &out[i]
		if fast := fastDecoder(info.Serializer); fast != nil {
			info.Serializer = fast
			replaced = true
		}
		if info.StreamSerializer == nil {
			continue
		}
		if fast := fastDecoder(info.StreamSerializer.Serializer); fast != nil {
			stream := *info.StreamSerializer
			stream.Serializer = fast
			info.StreamSerializer = &stream
			replaced = true
		}
	}
	return out, replaced
}

// fastDecoder returns the fast form of s, or nil when it has none.
func fastDecoder(s runtime.Serializer) runtime.Serializer {
	if s == nil {
		return nil
	}
	if typer, creater, ok := jsonReference(s); ok {
		return NewJSONSerializer(s, typer, creater)
	}
	if typer, creater, ok := protobufReference(s); ok {
		return NewProtobufSerializer(s, typer, creater)
	}
	if typer, ok := rawProtobufReference(s); ok {
		return NewProtobufStreamSerializer(s, typer)
	}
	return nil
}
