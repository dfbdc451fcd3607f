package protodecode

import "k8s.io/apimachinery/pkg/runtime"

// Into decodes the protobuf message data (the Raw of a runtime.Unknown
// envelope) into obj, which must have been reset. handled is false when
// obj's concrete type has no generated decoder; obj is then untouched.
// When err != nil, obj is partly decoded: the caller resets it and decodes
// with obj's own Unmarshal, which yields the reference's result.
func Into(data []byte, obj runtime.Object) (handled bool, err error) {
	return decodeObject(data, obj)
}
