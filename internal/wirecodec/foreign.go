package wirecodec

import (
	"bytes"
	"reflect"
	"unsafe"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
)

// Serializers of other modules. A caller's NegotiatedSerializer (its
// scheme's serializer.CodecFactory, often wrapped) hands the REST client
// apimachinery's own serializers. This package may put its fast decoders
// in front of one only when it decodes exactly as the fast decoders'
// reference does, which depends on settings apimachinery keeps in
// unexported fields: the typer and creater (the caller's scheme), the JSON
// meta factory and options, the protobuf prefix. The functions below read
// those fields, read-only, and give up (ok false) whenever a field is
// missing or has another type than apimachinery v0.37.2 gives it, so a
// different layout means the reference decodes, never a wrong decode.
// TestForeignLayouts pins the layouts this module is built with.

// jsonReference returns the typer and creater of s when s is
// apimachinery's JSON serializer as this package's JSONSerializer needs its
// reference: json.DefaultMetaFactory, not YAML, not strict (pretty only
// changes encoding).
func jsonReference(s runtime.Decoder) (runtime.ObjectTyper, runtime.ObjectCreater, bool) {
	js, ok := s.(*json.Serializer)
	if !ok || js == nil {
		return nil, nil, false
	}
	meta, ok := fieldOf[json.MetaFactory](js, "meta")
	if !ok || meta != json.MetaFactory(json.DefaultMetaFactory) {
		return nil, nil, false
	}
	options, ok := fieldOf[json.SerializerOptions](js, "options")
	if !ok || options.Yaml || options.Strict {
		return nil, nil, false
	}
	return typerAndCreater(js)
}

// protobufReference returns the typer and creater of s when s is
// apimachinery's protobuf serializer with the "k8s\x00" prefix.
func protobufReference(s runtime.Decoder) (runtime.ObjectTyper, runtime.ObjectCreater, bool) {
	ps, ok := s.(*protobuf.Serializer)
	if !ok || ps == nil {
		return nil, nil, false
	}
	prefix, ok := fieldOf[[]byte](ps, "prefix")
	if !ok || !bytes.Equal(prefix, protobufPrefix) {
		return nil, nil, false
	}
	return typerAndCreater(ps)
}

// rawProtobufReference returns the typer of s when s is apimachinery's raw
// protobuf serializer (watch frames).
func rawProtobufReference(s runtime.Decoder) (runtime.ObjectTyper, bool) {
	rs, ok := s.(*protobuf.RawSerializer)
	if !ok || rs == nil {
		return nil, false
	}
	typer, ok := fieldOf[runtime.ObjectTyper](rs, "typer")
	return typer, ok && typer != nil
}

// typerAndCreater reads the typer and creater fields of an apimachinery
// serializer.
func typerAndCreater(ptr any) (runtime.ObjectTyper, runtime.ObjectCreater, bool) {
	typer, ok := fieldOf[runtime.ObjectTyper](ptr, "typer")
	if !ok || typer == nil {
		return nil, nil, false
	}
	creater, ok := fieldOf[runtime.ObjectCreater](ptr, "creater")
	if !ok || creater == nil {
		return nil, nil, false
	}
	return typer, creater, true
}

// fieldOf reads the field called name of the struct ptr points to (or of
// the struct value ptr holds), whether exported or not. ok is false when
// there is no such field or its type is not exactly T.
func fieldOf[T any](ptr any, name string) (value T, ok bool) {
	v := reflect.ValueOf(ptr)
	switch {
	case v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct:
		v = v.Elem()
	case v.Kind() == reflect.Struct:
		// An interface holding a struct value is not addressable: read a
		// copy.
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c
	default:
		return value, false
	}
	f := v.FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[T]() {
		return value, false
	}
	return *(*T)(unsafe.Pointer(f.UnsafeAddr())), true
}
