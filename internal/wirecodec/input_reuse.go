package wirecodec

import "k8s.io/apimachinery/pkg/runtime"

// KeepsNoInput reports whether decoding with d into into keeps no part of
// the input, so that the caller may overwrite the input once Decode has
// returned: that is what lets the REST client reuse the buffer of a body
// decoded once (internal/decodeonce).
//
// It holds for this package's decoders (bare, decoding for a cache, or as
// the REST client wraps them): strings are converted or interned, byte
// fields (managed fields, raw extensions, secret data) copied, and what
// they leave to apimachinery's serializers copies as well (the
// gogo-generated Unmarshal methods; encoding/json's Unmarshaler contract).
// The one exception is a *runtime.Unknown target, whose Raw apimachinery's
// serializers point at the input; into must be the object Decode is given.
func KeepsNoInput(d runtime.Decoder, into runtime.Object) bool {
	if _, unknown := into.(*runtime.Unknown); unknown || into == nil {
		return false
	}
	return decodesByCopy(d)
}

// decodesByCopy reports whether d is one of this package's decoders.
func decodesByCopy(d runtime.Decoder) bool {
	switch x := d.(type) {
	case *ProtobufSerializer, *JSONSerializer, sharingDecoder, sharingJSONDecoder:
		return true
	case runtime.WithoutVersionDecoder:
		return decodesByCopy(x.Decoder)
	}
	return false
}
