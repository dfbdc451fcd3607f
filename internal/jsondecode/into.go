package jsondecode

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/jsondecode/lex"
	"github.com/kubeclient/client-go/pkg/decoders"
)

// Into decodes the JSON document data into obj as apimachinery's JSON
// serializer (sigs.k8s.io/json, case-sensitive, non-strict) would.
// handled is false when obj's concrete type has no generated decoder,
// neither a built-in one nor one registered with decoders.RegisterJSON
// by a user's generated package; obj is then untouched. When err != nil the caller decodes again with
// the reference decoder into the same obj; Into guarantees that this
// leaves obj and the returned error exactly as the reference decoder
// alone would: it validates the whole document before writing, and stops
// at the first value that does not fit having written only what the
// reference also writes.
func Into(data []byte, obj runtime.Object) (handled bool, err error) {
	l, err := lex.Index(data)
	if err != nil {
		// decode reports lex.ErrSyntax for a type it handles.
		return decode(nil, obj)
	}
	defer l.Release()
	return decode(l, obj)
}

// IntoIndexed is Into for a document already validated and indexed by
// lex.Index: it decodes l's document from its start, whatever was read
// from l before.
func IntoIndexed(l *lex.Lexer, obj runtime.Object) (handled bool, err error) {
	return decode(l, obj)
}

// decode decodes with the built-in decoder of obj's type, or the one a
// user's generated package registered for it.
func decode(l *lex.Lexer, obj runtime.Object) (bool, error) {
	if handled, err := decodeObject(l, obj); handled {
		return true, err
	}
	return decoders.DecodeJSON(l, obj)
}
