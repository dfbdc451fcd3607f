package protodecode

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/listitems"
	"github.com/kubeclient/client-go/internal/protodecode/wire"
)

// Into decodes the protobuf message data (the Raw of a runtime.Unknown
// envelope) into obj, which must have been reset. handled is false when
// obj's concrete type has no generated decoder; obj is then untouched.
// When err != nil, obj is partly decoded: the caller resets it and decodes
// with obj's own Unmarshal, which yields the reference's result.
// A Secret's strings are not interned (see intern.IsSecret).
func Into(data []byte, obj runtime.Object) (handled bool, err error) {
	if intern.IsSecret(obj) {
		return decodeObject(wire.NewPlainReader(data).WithSlab(), obj)
	}
	return decodeObject(wire.NewReader(data).WithSlab(), obj)
}

// IntoSharing is Into for an object nobody will write into (one going
// into an informer's cache): with s not nil, parts of it equal to those
// of objects decoded before are shared with them (see intern.DecodeSharing).
// An object's spec equal on the wire to one kept before, and still alive,
// is a copy of it (see wire.Reused). The specs decoded are kept for later
// decodes when fresh says that obj was made for this decode, and for the
// items of a list (a reset list gets a new array of items): never those
// of a caller's object, which the caller may reset and decode into again.
func IntoSharing(data []byte, obj runtime.Object, s *intern.DecodeSharing, fresh bool) (handled bool, err error) {
	return IntoCache(data, obj, CacheDecode{Sharing: s}, fresh)
}

// CacheDecode says how IntoCache decodes the objects of one request of an
// informer.
type CacheDecode struct {
	// Sharing, when not nil, shares the parts of objects equal to those
	// of objects decoded before (see IntoSharing); without it, IntoCache
	// is Into.
	Sharing *intern.DecodeSharing
	// Items, when not nil, gets each item of a list an allocation of its
	// own, recorded there, where the informer may keep it (see package
	// listitems).
	Items *listitems.Recorder
	// Strings, when not nil, holds the strings met last by the decodes of
	// a watch stream, from one event to the next (see wire.StreamStrings);
	// it is owned by the goroutine decoding the stream.
	Strings *wire.StreamStrings
}

// IntoCache is IntoSharing with what c adds.
func IntoCache(data []byte, obj runtime.Object, c CacheDecode, fresh bool) (handled bool, err error) {
	if c.Sharing == nil || intern.IsSecret(obj) {
		return Into(data, obj)
	}
	var log wire.ReuseLog
	isList := meta.IsListType(obj)
	if c.Items != nil && isList {
		log.CollectItems()
	}
	if !fresh && !isList {
		log.ForCaller()
	}
	handled, err = decodeObject(wire.NewReusingReader(data, c.Sharing, &log).WithSlab().WithStreamStrings(c.Strings), obj)
	if handled && err == nil {
		log.Commit(c.Sharing)
		c.Items.Record(obj, itemObjects(log.Items()))
	}
	return handled, err
}

// itemObjects returns the list items AppendItem logged as objects.
func itemObjects(logged []any) []runtime.Object {
	if len(logged) == 0 {
		return nil
	}
	objs := make([]runtime.Object, 0, len(logged))
	for _, item := range logged {
		obj, ok := item.(runtime.Object)
		if !ok {
			return nil
		}
		objs = append(objs, obj)
	}
	return objs
}
