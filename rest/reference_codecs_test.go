package rest

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// referenceCodecs returns ns with each of its serializers behind a wrapper
// the REST client does not recognise, so a client built with it decodes
// with apimachinery's serializers alone: the reference the differential
// tests compare this module's decoders with.
func referenceCodecs(ns runtime.NegotiatedSerializer) runtime.NegotiatedSerializer {
	infos := append([]runtime.SerializerInfo(nil), ns.SupportedMediaTypes()...)
	for i := range infos {
		if infos[i].Serializer != nil {
			infos[i].Serializer = opaqueSerializer{infos[i].Serializer}
		}
		if s := infos[i].StreamSerializer; s != nil && s.Serializer != nil {
			stream := *s
			stream.Serializer = opaqueSerializer{s.Serializer}
			infos[i].StreamSerializer = &stream
		}
	}
	return opaqueCodecs{NegotiatedSerializer: ns, infos: infos}
}

// opaqueCodecs is ns with the media types referenceCodecs made.
type opaqueCodecs struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

func (c opaqueCodecs) SupportedMediaTypes() []runtime.SerializerInfo { return c.infos }

// opaqueSerializer hides the type of the serializer it holds.
type opaqueSerializer struct{ runtime.Serializer }
