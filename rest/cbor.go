package rest

import (
	"mime"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/cbor"

	"github.com/kubeclient/client-go/features"
)

func cborAllowed() bool {
	return features.FeatureGates().Enabled(features.ClientsAllowCBOR)
}

func cborPreferred() bool {
	return features.FeatureGates().Enabled(features.ClientsPreferCBOR)
}

// adjustContentConfigForCBOR prepares a client's content settings for the
// CBOR feature gates. With CBOR allowed, the negotiator learns to decode
// watch streams sent as CBOR sequences. Without it, every mention of CBOR in
// ContentType and AcceptContentTypes is replaced with JSON.
func adjustContentConfigForCBOR(content ClientContentConfig) ClientContentConfig {
	if cborAllowed() {
		if content.Negotiator != nil {
			content.Negotiator = cborSequenceNegotiator{content.Negotiator}
		}
		return content
	}
	if mt, _, err := mime.ParseMediaType(content.ContentType); err == nil && mt == runtime.ContentTypeCBOR {
		content.ContentType = runtime.ContentTypeJSON
	}
	if content.AcceptContentTypes != "" {
		content.AcceptContentTypes = replaceCBORInAccept(content.AcceptContentTypes)
	}
	return content
}

// replaceCBORInAccept rewrites every application/cbor entry of an Accept
// header to application/json, keeping parameters and order. A header without
// CBOR is returned unchanged.
func replaceCBORInAccept(accept string) string {
	entries := strings.Split(accept, ",")
	changed := false
	for i, entry := range entries {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(entry))
		if err != nil || mt != runtime.ContentTypeCBOR {
			continue
		}
		changed = true
		entries[i] = mime.FormatMediaType(runtime.ContentTypeJSON, params)
	}
	if !changed {
		return accept
	}
	for i := range entries {
		entries[i] = strings.TrimSpace(entries[i])
	}
	return strings.Join(entries, ",")
}

// cborSequenceNegotiator treats "application/cbor-seq" (any number of CBOR
// items) as the stream form of "application/cbor", and refuses plain
// "application/cbor" for streams since it holds exactly one item.
type cborSequenceNegotiator struct {
	runtime.ClientNegotiator
}

func (n cborSequenceNegotiator) StreamDecoder(contentType string, params map[string]string) (runtime.Decoder, runtime.Serializer, runtime.Framer, error) {
	if !cborAllowed() {
		return n.ClientNegotiator.StreamDecoder(contentType, params)
	}
	switch contentType {
	case runtime.ContentTypeCBORSequence:
		return n.ClientNegotiator.StreamDecoder(runtime.ContentTypeCBOR, params)
	case runtime.ContentTypeCBOR:
		return nil, nil, nil, runtime.NegotiateError{ContentType: contentType, Stream: true}
	}
	return n.ClientNegotiator.StreamDecoder(contentType, params)
}

// CodecFactoryForGeneratedClient returns codecs unchanged unless a client
// feature gate changes serialization (ClientsAllowCBOR), in which case it
// builds a CodecFactory for scheme that also speaks CBOR. For client-gen
// output only; codecs must have been built from scheme.
func CodecFactoryForGeneratedClient(scheme *runtime.Scheme, codecs serializer.CodecFactory) serializer.CodecFactory {
	if !cborAllowed() {
		return codecs
	}
	return serializer.NewCodecFactory(scheme, serializer.WithSerializer(cbor.NewSerializerInfo))
}
