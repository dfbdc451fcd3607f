package wirecodec

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// negotiatedSerializer is a runtime.NegotiatedSerializer whose JSON and
// protobuf serializers decode through this package's fast paths;
// everything else is the wrapped one's.
type negotiatedSerializer struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

// NewNegotiatedSerializer wraps ns, the codecs of scheme as
// serializer.CodecFactory builds them (not strict), so that its
// application/json serializer and stream serializer decode through a
// JSONSerializer, its protobuf serializer through a ProtobufSerializer and
// its protobuf stream serializer (watch event frames, no envelope) through
// a ProtobufStreamSerializer, with scheme as typer and
// creater. Encoding, the other media types and the conversion steps stay
// those of ns. With the generated decoders switched off
// (fastpath.GeneratedDecoders) it returns ns.
func NewNegotiatedSerializer(ns runtime.NegotiatedSerializer, scheme *runtime.Scheme) runtime.NegotiatedSerializer {
	if !fastpath.GeneratedDecoders.On() {
		return ns
	}
	infos := append([]runtime.SerializerInfo(nil), ns.SupportedMediaTypes()...)
	for i := range infos {
		info := &infos[i]
		if info.MediaType == runtime.ContentTypeProtobuf && info.Serializer != nil {
			info.Serializer = NewProtobufSerializer(info.Serializer, scheme, scheme)
			*info = WrapProtobufStream(*info, scheme)
		}
		if info.MediaType != runtime.ContentTypeJSON {
			continue
		}
		if info.Serializer != nil {
			info.Serializer = NewJSONSerializer(info.Serializer, scheme, scheme)
		}
		if info.StreamSerializer != nil {
			stream := *info.StreamSerializer
			if stream.Serializer != nil {
				stream.Serializer = NewJSONSerializer(stream.Serializer, scheme, scheme)
			}
			info.StreamSerializer = &stream
		}
	}
	return negotiatedSerializer{NegotiatedSerializer: ns, infos: infos}
}

// SupportedMediaTypes returns the wrapped serializer's media types with the
// JSON decoders replaced.
func (s negotiatedSerializer) SupportedMediaTypes() []runtime.SerializerInfo { return s.infos }
