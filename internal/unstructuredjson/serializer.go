package unstructuredjson

import (
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// Serializer is apimachinery's non-strict JSON serializer for a client of
// unstructured objects, with a decoder that reads documents into
// Unstructured and UnstructuredList in one pass with Decode instead of the
// reference's three (apiVersion/kind, syntax check, map). Targets of other
// types, and every document the fast path does not take as the reference
// would, are decoded by the reference.
type Serializer struct {
	ref     runtime.Serializer
	creater runtime.ObjectCreater
}

var _ runtime.Serializer = &Serializer{}

// UnstructuredKinds may be implemented by the creater of a Serializer
// that can tell, without creating anything, that it creates kind gvk as a
// new Unstructured carrying gvk: the decoder then makes the Unstructured
// around the content itself instead of creating one to replace its
// content.
type UnstructuredKinds interface {
	CreatesUnstructured(gvk schema.GroupVersionKind) bool
}

// NewSerializer puts the fast decoder in front of ref, apimachinery's JSON
// serializer built with json.DefaultMetaFactory and creater, not strict,
// not YAML.
func NewSerializer(ref runtime.Serializer, creater runtime.ObjectCreater) *Serializer {
	return &Serializer{ref: ref, creater: creater}
}

// Encode encodes with the reference.
func (s *Serializer) Encode(obj runtime.Object, w io.Writer) error { return s.ref.Encode(obj, w) }

// Identifier is the reference's.
func (s *Serializer) Identifier() runtime.Identifier { return s.ref.Identifier() }

// Decode decodes data as the reference does.
func (s *Serializer) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return s.decode(data, defaults, into, nil)
}

// ForCache returns a decoder for objects that go into an informer's cache
// unchanged: it decodes as Decode, sharing managed-fields trees with
// share (see DecodeSharing). wirecodec.ForContext gives it to the requests
// of such informers.
func (s *Serializer) ForCache(share *intern.DecodeSharing) runtime.Decoder {
	return cacheDecoder{s, share}
}

// cacheDecoder is a Serializer decoding with a DecodeSharing.
type cacheDecoder struct {
	s     *Serializer
	share *intern.DecodeSharing
}

func (d cacheDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return d.s.decode(data, defaults, into, d.share)
}

// decode decodes data as the reference does; with share, what the fast
// path decodes shares its managed-fields trees.
func (s *Serializer) decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object, share *intern.DecodeSharing) (runtime.Object, *schema.GroupVersionKind, error) {
	if obj, gvk, ok := s.decodeFast(data, defaults, into, share); ok {
		return obj, gvk, nil
	}
	return s.ref.Decode(data, defaults, into)
}

// decodeFast follows the reference for unstructured results: the
// document's apiVersion must parse; into, or the object the creater makes
// for the document's kind, must be an Unstructured (its content is then
// replaced) or an empty UnstructuredList; and the result must have a kind.
// ok is false, with into untouched, whenever the reference must decode.
func (s *Serializer) decodeFast(data []byte, defaults *schema.GroupVersionKind, into runtime.Object, share *intern.DecodeSharing) (runtime.Object, *schema.GroupVersionKind, bool) {
	switch into.(type) {
	case nil, *unstructured.Unstructured, *unstructured.UnstructuredList:
	default:
		return nil, nil, false
	}
	// The object of a watch event arrives checked with its frame.
	content, meta, err := decode(data, share, wirecodec.TakeCheckedEventObject(data))
	if err != nil || !meta.Plain {
		return nil, nil, false
	}
	gv, err := schema.ParseGroupVersion(meta.APIVersion)
	if err != nil {
		return nil, nil, false
	}
	switch target := into.(type) {
	case *unstructured.Unstructured:
		decoded := unstructured.Unstructured{Object: content}
		gvk := decoded.GroupVersionKind()
		if gvk.Kind == "" {
			return nil, nil, false
		}
		target.Object = content
		return target, &gvk, true
	case *unstructured.UnstructuredList:
		return decodeList(content, target)
	}
	gvk := gv.WithKind(meta.Kind)
	if defaults != nil {
		gvk = wirecodec.WithDefaults(gvk, *defaults)
	}
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, nil, false
	}
	if kinds, ok := s.creater.(UnstructuredKinds); ok && kinds.CreatesUnstructured(gvk) {
		u := &unstructured.Unstructured{Object: content}
		if u.GroupVersionKind().Kind == "" {
			return nil, nil, false
		}
		return u, &gvk, true
	}
	obj, err := s.creater.New(gvk)
	if err != nil {
		return nil, nil, false
	}
	u, isUnstructured := obj.(*unstructured.Unstructured)
	if !isUnstructured {
		return nil, nil, false
	}
	if decoded := (unstructured.Unstructured{Object: content}); decoded.GroupVersionKind().Kind == "" {
		return nil, nil, false
	}
	u.Object = content
	return u, &gvk, true
}

// decodeList fills an empty list from the decoded document as the
// reference does: the document without "items" as the list's content, each
// item an Unstructured that, lacking both apiVersion and kind, gets the
// list's apiVersion and its kind without the "List" suffix.
func decodeList(content map[string]any, list *unstructured.UnstructuredList) (runtime.Object, *schema.GroupVersionKind, bool) {
	if list.Object != nil || list.Items != nil {
		return nil, nil, false
	}
	var items []any
	switch raw := content["items"].(type) {
	case nil:
	case []any:
		items = raw
	default:
		return nil, nil, false
	}
	for _, item := range items {
		if _, isObject := item.(map[string]any); !isObject {
			return nil, nil, false
		}
	}
	delete(content, "items")
	decoded := unstructured.UnstructuredList{Object: content}
	gvk := decoded.GroupVersionKind()
	if gvk.Kind == "" {
		return nil, nil, false
	}
	apiVersion, itemKind := getString(content, "apiVersion"), strings.TrimSuffix(getString(content, "kind"), "List")
	list.Object = content
	list.Items = make([]unstructured.Unstructured, len(items))
	for i, item := range items {
		u := &list.Items[i]
		u.Object = item.(map[string]any)
		if getString(u.Object, "kind") == "" && getString(u.Object, "apiVersion") == "" {
			u.SetKind(itemKind)
			u.SetAPIVersion(apiVersion)
		}
	}
	return list, &gvk, true
}

// getString returns m[key] when it is a string, as Unstructured's getters do.
func getString(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}
