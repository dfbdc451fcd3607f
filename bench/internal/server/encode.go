package server

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// repr is one way of answering: wire format and whether objects are sent
// whole or as PartialObjectMetadata.
type repr struct {
	protobuf bool
	metadata bool
}

func (r repr) String() string {
	s := "json"
	if r.protobuf {
		s = "protobuf"
	}
	if r.metadata {
		s = "metadata-" + s
	}
	return s
}

var protobufMagic = []byte("k8s\x00")

var metaGV = metav1.SchemeGroupVersion

// encoder encodes objects of one resource in one repr.
type encoder struct {
	repr     repr
	gvk      schema.GroupVersionKind // kind of one object on the wire
	listGVK  schema.GroupVersionKind
	itemMeta bool // list items carry kind and apiVersion (JSON)
}

func newEncoder(r repr, gvk schema.GroupVersionKind, listKind string, typed bool) *encoder {
	e := &encoder{repr: r, gvk: gvk, listGVK: gvk.GroupVersion().WithKind(listKind), itemMeta: !typed}
	if r.metadata {
		e.gvk = metaGV.WithKind("PartialObjectMetadata")
		e.listGVK = metaGV.WithKind("PartialObjectMetadataList")
		e.itemMeta = true
	}
	return e
}

type protoMarshaler interface{ Marshal() ([]byte, error) }

// item encodes obj as a list item: JSON (with kind and apiVersion only
// where the API server writes them) or the bare protobuf message.
func (e *encoder) item(obj runtime.Object) ([]byte, error) {
	if e.repr.metadata {
		acc, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		pom := &metav1.PartialObjectMetadata{ObjectMeta: objectMeta(acc)}
		pom.TypeMeta = metav1.TypeMeta{Kind: e.gvk.Kind, APIVersion: e.gvk.GroupVersion().String()}
		obj = pom
	}
	if e.repr.protobuf {
		m, ok := obj.(protoMarshaler)
		if !ok {
			return nil, fmt.Errorf("server: %T has no protobuf encoding", obj)
		}
		return m.Marshal()
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return json.Marshal(u.Object)
	}
	return json.Marshal(obj)
}

// full turns an encoded list item into a whole response body: the JSON
// object with kind and apiVersion, or the protobuf envelope (magic prefix
// and runtime.Unknown).
func (e *encoder) full(item []byte) []byte {
	return e.wrap(item, e.gvk, e.itemMeta)
}

// object is the body of a GET response: full, and for JSON a newline, as
// kube-apiserver writes it.
func (e *encoder) object(item []byte) []byte {
	b := e.full(item)
	if e.repr.protobuf {
		return b
	}
	return append(b[:len(b):len(b)], '\n')
}

func (e *encoder) wrap(raw []byte, gvk schema.GroupVersionKind, hasTypeMeta bool) []byte {
	if e.repr.protobuf {
		u := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}, Raw: raw}
		b, err := u.Marshal()
		if err != nil {
			panic(err) // runtime.Unknown always encodes
		}
		return append(append([]byte{}, protobufMagic...), b...)
	}
	if hasTypeMeta {
		return raw
	}
	head := fmt.Sprintf(`{"kind":%q,"apiVersion":%q`, gvk.Kind, gvk.GroupVersion().String())
	out := make([]byte, 0, len(head)+len(raw)+1)
	out = append(out, head...)
	if len(raw) > 2 {
		out = append(out, ',')
	}
	return append(out, raw[1:]...)
}

// list encodes a list response holding items.
func (e *encoder) list(items [][]byte, rv int64, cont string, remaining int64) []byte {
	if e.repr.protobuf {
		lm := metav1.ListMeta{ResourceVersion: strconv.FormatInt(rv, 10), Continue: cont}
		if cont != "" {
			lm.RemainingItemCount = &remaining
		}
		lmb, _ := lm.Marshal()
		size := len(lmb) + 11
		for _, it := range items {
			size += len(it) + 11
		}
		body := make([]byte, 0, size)
		body = appendField(body, 1, lmb)
		for _, it := range items {
			body = appendField(body, 2, it)
		}
		return e.wrap(body, e.listGVK, false)
	}
	size := 200
	for _, it := range items {
		size += len(it) + 1
	}
	out := make([]byte, 0, size)
	appendItems := func() {
		out = append(out, `"items":[`...)
		for k, it := range items {
			if k > 0 {
				out = append(out, ',')
			}
			out = append(out, it...)
		}
		out = append(out, ']')
	}
	if e.unstructured() {
		// An unstructured list: keys in sorted order, as encoding/json
		// writes a map.
		out = fmt.Appendf(out, `{"apiVersion":%q,`, e.listGVK.GroupVersion().String())
		appendItems()
		out = fmt.Appendf(out, `,"kind":%q,"metadata":{"continue":%q,`, e.listGVK.Kind, cont)
		if cont != "" {
			out = fmt.Appendf(out, `"remainingItemCount":%d,`, remaining)
		}
		return fmt.Appendf(out, `"resourceVersion":"%d"}}`+"\n", rv)
	}
	out = fmt.Appendf(out, `{"kind":%q,"apiVersion":%q,"metadata":{"resourceVersion":"%d"`, e.listGVK.Kind, e.listGVK.GroupVersion().String(), rv)
	if cont != "" {
		out = fmt.Appendf(out, `,"continue":%q,"remainingItemCount":%d`, cont, remaining)
	}
	out = append(out, `},`...)
	appendItems()
	return append(out, "}\n"...)
}

// unstructured reports whether objects are custom resources sent whole.
func (e *encoder) unstructured() bool { return e.itemMeta && !e.repr.metadata }

// appendField appends a length-delimited protobuf field.
func appendField(b []byte, field int, data []byte) []byte {
	b = binary.AppendUvarint(b, uint64(field<<3|2))
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// frame encodes one watch event around a whole object body (from full).
func (e *encoder) frame(typ string, object []byte) []byte {
	if e.repr.protobuf {
		ev := metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: object}}
		b, err := ev.Marshal()
		if err != nil {
			panic(err)
		}
		out := binary.BigEndian.AppendUint32(make([]byte, 0, len(b)+4), uint32(len(b)))
		return append(out, b...)
	}
	out := make([]byte, 0, len(object)+32)
	out = fmt.Appendf(out, `{"type":%q,"object":`, typ)
	out = append(out, object...)
	return append(out, "}\n"...)
}

// bookmark is the BOOKMARK event that ends a watch-list's initial events.
func (e *encoder) bookmark(rv int64, typed runtime.Object) ([]byte, error) {
	m := metav1.ObjectMeta{ResourceVersion: strconv.FormatInt(rv, 10),
		Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}
	var obj runtime.Object
	switch {
	case e.repr.metadata:
		obj = &metav1.PartialObjectMetadata{ObjectMeta: m}
	case !e.itemMeta:
		// An empty object of the kind.
		o := reflect.New(reflect.TypeOf(typed).Elem()).Interface().(runtime.Object)
		acc, err := meta.Accessor(o)
		if err != nil {
			return nil, err
		}
		acc.SetResourceVersion(m.ResourceVersion)
		acc.SetAnnotations(m.Annotations)
		obj = o
	default:
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetGroupVersionKind(e.gvk)
		u.SetResourceVersion(m.ResourceVersion)
		u.SetAnnotations(m.Annotations)
		obj = u
	}
	it, err := e.item(obj)
	if err != nil {
		return nil, err
	}
	return e.frame("BOOKMARK", e.full(it)), nil
}

// expired is the ERROR event of a watch whose resourceVersion is too old.
func (e *encoder) expired(rv int64) []byte {
	st := metav1.Status{
		Status:  metav1.StatusFailure,
		Message: fmt.Sprintf("too old resource version: %d (%d)", rv, rv+1),
		Reason:  metav1.StatusReasonExpired,
		Code:    410,
	}
	statusGVK := schema.GroupVersionKind{Version: "v1", Kind: "Status"}
	var raw []byte
	if e.repr.protobuf {
		raw, _ = st.Marshal()
		return e.frame("ERROR", e.wrap(raw, statusGVK, false))
	}
	st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	raw, _ = json.Marshal(&st)
	return e.frame("ERROR", raw)
}

// objectMeta copies the metadata of any object, typed or unstructured.
func objectMeta(a metav1.Object) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: a.GetName(), GenerateName: a.GetGenerateName(), Namespace: a.GetNamespace(),
		UID: a.GetUID(), ResourceVersion: a.GetResourceVersion(), Generation: a.GetGeneration(),
		CreationTimestamp: a.GetCreationTimestamp(), DeletionTimestamp: a.GetDeletionTimestamp(),
		DeletionGracePeriodSeconds: a.GetDeletionGracePeriodSeconds(),
		Labels:                     a.GetLabels(), Annotations: a.GetAnnotations(), OwnerReferences: a.GetOwnerReferences(),
		Finalizers: a.GetFinalizers(), ManagedFields: a.GetManagedFields(),
	}
}
