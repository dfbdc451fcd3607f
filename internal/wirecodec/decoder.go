package wirecodec

import (
	"errors"
	"io"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/jsondecode"
	"github.com/kubeclient/client-go/internal/jsondecode/lex"
)

// JSONSerializer is apimachinery's non-strict JSON serializer with a faster
// decoder in front of it. Encoding is the reference's. Decoding follows the
// reference's steps (apiVersion and kind, defaults, target object) without
// decoding the document twice, and decodes the object with a generated
// decoder; whenever a step needs more than the common case, or the
// generated decoder is missing or fails, the reference decodes instead, so
// objects and errors are the reference's.
type JSONSerializer struct {
	// ref is the reference: json.NewSerializerWithOptions with
	// json.DefaultMetaFactory, typer and creater, and no options set.
	ref     runtime.Serializer
	typer   runtime.ObjectTyper
	creater runtime.ObjectCreater
	// into is the generated decoder (jsondecode.IntoIndexed outside
	// tests), reading a document lex.Index validated.
	into func(l *lex.Lexer, obj runtime.Object) (handled bool, err error)
	// watchEventKind is the kind WatchEvent has in typer, when it has one.
	watchEventKind *schema.GroupVersionKind
	kinds          kindCache
}

var _ runtime.Serializer = &JSONSerializer{}

// NewJSONSerializer puts the fast decoder in front of ref, which must be
// apimachinery's JSON serializer built with json.DefaultMetaFactory, typer
// and creater, not strict, not YAML.
func NewJSONSerializer(ref runtime.Serializer, typer runtime.ObjectTyper, creater runtime.ObjectCreater) *JSONSerializer {
	s := &JSONSerializer{ref: ref, typer: typer, creater: creater, into: jsondecode.IntoIndexed}
	if kinds, _, err := typer.ObjectKinds(&metav1.WatchEvent{}); err == nil {
		s.watchEventKind = &kinds[0]
	}
	return s
}

// Encode encodes with the reference.
func (s *JSONSerializer) Encode(obj runtime.Object, w io.Writer) error { return s.ref.Encode(obj, w) }

// Identifier is the reference's: encodings are the same.
func (s *JSONSerializer) Identifier() runtime.Identifier { return s.ref.Identifier() }

// Decode decodes data as the reference does.
func (s *JSONSerializer) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return s.decode(data, defaults, into, nil)
}

// decode is Decode; the generated decoders share what share allows with
// the objects decoded before (see lex.SetShare).
func (s *JSONSerializer) decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object, share *intern.DecodeSharing) (runtime.Object, *schema.GroupVersionKind, error) {
	if !s.fastTarget(into) {
		return s.ref.Decode(data, defaults, into)
	}
	l := takeEventObject(data)
	if l == nil {
		var err error
		if l, err = lex.Index(data); err != nil {
			return s.ref.Decode(data, defaults, into)
		}
	}
	defer l.Release()
	lex.SetShare(l, share)
	return s.decodeIndexed(l, defaults, into, false)
}

// ErrMalformedFrame is DecodeFrame's answer for a frame with a syntax
// error.
var ErrMalformedFrame = errors.New("wirecodec: malformed JSON frame")

// DecodeFrame decodes a frame of a JSON watch stream, an object whose
// braces balance, as Decode does, checking its syntax once for the stream
// and the decoding both. It fails with ErrMalformedFrame, having decoded
// nothing, when the frame is malformed: the stream's framing reports
// that, not the decoder. l, when not nil, is the frame already indexed by
// lex.Index or lex.IndexPrefix; DecodeFrame releases it.
//
// Decoding into a WatchEvent, DecodeFrame leaves the index of the event's
// object for the JSONSerializer that decodes event.Object.Raw next, which
// must be passed to it unchanged (see eventobject.go).
func (s *JSONSerializer) DecodeFrame(l *lex.Lexer, frame []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if l == nil {
		var err error
		if l, err = lex.Index(frame); err != nil {
			return nil, nil, ErrMalformedFrame
		}
	}
	defer l.Release()
	if !s.fastTarget(into) {
		return s.ref.Decode(frame, defaults, into)
	}
	return s.decodeIndexed(l, defaults, into, true)
}

// fastTarget reports whether a fast path may decode into into: not for
// runtime.Unknown and unstructured targets, which the reference fills
// from the raw bytes.
func (s *JSONSerializer) fastTarget(into runtime.Object) bool {
	switch into.(type) {
	case *runtime.Unknown, runtime.Unstructured:
		return false
	}
	return true
}

// decodeIndexed is Decode for the document of l, validated; remember is
// decodeWatchEvent's.
func (s *JSONSerializer) decodeIndexed(l *lex.Lexer, defaults *schema.GroupVersionKind, into runtime.Object, remember bool) (runtime.Object, *schema.GroupVersionKind, error) {
	if event, ok := into.(*metav1.WatchEvent); ok && event != nil && defaults == nil && s.watchEventKind != nil && decodeWatchEvent(l, event, remember) {
		// With no apiVersion or kind in data and no defaults, the
		// reference decodes into event under its first kind in typer.
		gvk := *s.watchEventKind
		return event, &gvk, nil
	}
	if obj, actual, ok := s.decodeFast(l, defaults, into); ok {
		return obj, actual, nil
	}
	if lex.Share(l) != nil && into != nil {
		// The generated decoder may have put shared values into into,
		// which the reference would merge into: it decodes into a zero
		// object, which into was (decoding with sharing is for objects
		// made for the decode).
		zero(into)
	}
	return s.ref.Decode(l.Bytes(), defaults, into)
}

// zero sets *obj to its zero value.
func zero(obj runtime.Object) {
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
}

// decodeFast is the reference's decoding for the common case: a typed
// target known to the typer, or none. ok is false when the reference must
// decode; into is then untouched, or left for the reference to overwrite
// as the generated decoder guarantees.
func (s *JSONSerializer) decodeFast(l *lex.Lexer, defaults *schema.GroupVersionKind, into runtime.Object) (obj runtime.Object, actual *schema.GroupVersionKind, ok bool) {
	apiVersion, kind, ok := peekTypeMeta(l)
	if !ok {
		return nil, nil, false
	}
	gv, gvOK, kindString := s.kinds.lookup(apiVersion, kind)
	if !gvOK {
		return nil, nil, false
	}
	gvk := gv.WithKind(kindString)
	if defaults != nil {
		gvk = WithDefaults(gvk, *defaults)
	}
	if into != nil {
		kinds, _, err := s.typer.ObjectKinds(into)
		if err != nil {
			return nil, nil, false
		}
		gvk = WithDefaults(gvk, kinds[0])
	}
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, nil, false
	}
	obj, err := runtime.UseOrCreateObject(s.typer, s.creater, gvk, into)
	if err != nil {
		return nil, nil, false
	}
	if intern.IsSecret(obj) {
		// A Secret's values must not enter process-wide tables.
		lex.Private(l)
	}
	if handled, err := s.into(l, obj); !handled || err != nil {
		return nil, nil, false
	}
	return obj, &gvk, true
}

// WithDefaults fills what gvk lacks from defaults as apimachinery's JSON
// serializer does: a missing kind always; a missing version when the group
// is missing too (taking the default group with it) or when the groups
// agree.
func WithDefaults(gvk, defaults schema.GroupVersionKind) schema.GroupVersionKind {
	if gvk.Kind == "" {
		gvk.Kind = defaults.Kind
	}
	if gvk.Version == "" {
		switch {
		case gvk.Group == "":
			gvk.Group, gvk.Version = defaults.Group, defaults.Version
		case gvk.Group == defaults.Group:
			gvk.Version = defaults.Version
		}
	}
	return gvk
}
