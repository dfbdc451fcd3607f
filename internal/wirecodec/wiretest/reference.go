package wiretest

import "k8s.io/apimachinery/pkg/runtime"

// ReferenceCodecs returns ns with each of its serializers behind a wrapper
// that the REST client and wirecodec.NewNegotiatedSerializer do not
// recognise, so a client built with it decodes with apimachinery's
// serializers alone: the reference of the differential tests.
func ReferenceCodecs(ns runtime.NegotiatedSerializer) runtime.NegotiatedSerializer {
	infos := append([]runtime.SerializerInfo(nil), ns.SupportedMediaTypes()...)
	for i := range infos {
		if infos[i].Serializer != nil {
			infos[i].Serializer = Opaque{infos[i].Serializer}
		}
		if s := infos[i].StreamSerializer; s != nil && s.Serializer != nil {
			stream := *s
			stream.Serializer = Opaque{s.Serializer}
			infos[i].StreamSerializer = &stream
		}
	}
	return referenceCodecs{NegotiatedSerializer: ns, infos: infos}
}

// referenceCodecs is ns with the media types ReferenceCodecs made.
type referenceCodecs struct {
	runtime.NegotiatedSerializer
	infos []runtime.SerializerInfo
}

func (c referenceCodecs) SupportedMediaTypes() []runtime.SerializerInfo { return c.infos }

// Opaque hides the type of the serializer it holds.
type Opaque struct{ runtime.Serializer }
