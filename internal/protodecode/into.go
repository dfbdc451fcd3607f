package protodecode

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/protodecode/wire"
)

// Into decodes the protobuf message data (the Raw of a runtime.Unknown
// envelope) into obj, which must have been reset. handled is false when
// obj's concrete type has no generated decoder; obj is then untouched.
// When err != nil, obj is partly decoded: the caller resets it and decodes
// with obj's own Unmarshal, which yields the reference's result.
func Into(data []byte, obj runtime.Object) (handled bool, err error) {
	return decodeObject(wire.NewReader(data), obj)
}

// IntoSharing is Into for an object nobody will write into (one going
// into an informer's cache): with s not nil, parts of it equal to those
// of objects decoded before are shared with them (see intern.DecodeSharing).
// Once decoded, obj is s.Decoded.
func IntoSharing(data []byte, obj runtime.Object, s *intern.DecodeSharing) (handled bool, err error) {
	handled, err = decodeObject(wire.NewSharingReader(data, s), obj)
	if handled && err == nil && s != nil {
		s.NoteDecoded(obj)
	}
	return handled, err
}
