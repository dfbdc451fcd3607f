package decoders

import (
	"fmt"
	"reflect"
	"sync"
)

// jsonDecoders maps the pointer type *T of each type with a registered
// JSON decoder to its decodeFunc. It is a sync.Map: written when packages
// are initialized (RegisterJSON), read on every decode of a type the
// built-in decoders do not know.
var jsonDecoders sync.Map // reflect.Type -> decodeFunc

// decodeFunc decodes a whole document into obj, a *T of the type it was
// registered for.
type decodeFunc func(l *Lexer, obj any) error

// RegisterJSON records decode as the decoder of JSON documents into values
// of type T. The init function of a file that cmd/codegen -decoders wrote
// calls it for each object type of its API package. Registering a second
// decoder for one type panics: two generated files claim the type, a
// mistake in the program's build that no input can cause.
func RegisterJSON[T any](decode func(*Lexer, *T) error) {
	if decode == nil {
		panic("decoders: RegisterJSON with a nil decoder")
	}
	typ := reflect.TypeFor[*T]()
	fn := decodeFunc(func(l *Lexer, obj any) error { return Decode(l, obj.(*T), decode) })
	if _, dup := jsonDecoders.LoadOrStore(typ, fn); dup {
		panic(fmt.Sprintf("decoders: a JSON decoder for %v is registered twice", typ))
	}
}

// DecodeJSON decodes the document of l, from its start, into obj with the
// decoder registered for obj's type. handled is false, obj untouched, when
// no decoder is registered for it. A nil l stands for a document that did
// not validate: the error is then ErrSyntax. When err != nil the caller
// decodes the document again with the reference decoder
// (sigs.k8s.io/json, case-sensitive) into the same obj, which leaves obj
// and the error exactly as the reference alone would.
func DecodeJSON(l *Lexer, obj any) (handled bool, err error) {
	if obj == nil {
		return false, nil
	}
	fn, ok := jsonDecoders.Load(reflect.TypeOf(obj))
	if !ok {
		return false, nil
	}
	return true, fn.(decodeFunc)(l, obj)
}

// UnmarshalJSON is DecodeJSON for the document data: it validates data,
// decodes it, and releases the lexer.
func UnmarshalJSON(data []byte, obj any) (handled bool, err error) {
	l, err := Index(data)
	if err != nil {
		return DecodeJSON(nil, obj)
	}
	defer l.Release()
	return DecodeJSON(l, obj)
}

// RegisteredJSON reports whether a JSON decoder is registered for obj's
// type.
func RegisteredJSON(obj any) bool {
	if obj == nil {
		return false
	}
	_, ok := jsonDecoders.Load(reflect.TypeOf(obj))
	return ok
}
