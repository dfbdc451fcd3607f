package cachesafety

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/watch"
)

// scheme knows core/v1 and the meta.k8s.io/v1 partial-metadata types, as
// kube-apiserver's does for the requests these tests make.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		panic(err)
	}
	metav1.AddMetaToScheme(s)
	return s
}()

// codecs holds apimachinery's serializers for scheme: the reference both
// for encoding (the server) and for decoding (what a document means).
var codecs = serializer.NewCodecFactory(scheme)

var (
	jsonSerializer  = jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, scheme, scheme, jsonserializer.SerializerOptions{})
	protoSerializer = protobuf.NewSerializer(scheme, scheme)
	protoRaw        = protobuf.NewRawSerializer(scheme, scheme)
)

// wireFormat is what the fake server speaks: JSON or protobuf, full pods
// or their metadata only (PartialObjectMetadata, as for a metadata client).
type wireFormat struct {
	protobuf bool
	metadata bool
}

func (w wireFormat) String() string {
	s := "json"
	if w.protobuf {
		s = "protobuf"
	}
	if w.metadata {
		s += "-metadata"
	}
	return s
}

func (w wireFormat) kind() string {
	if w.metadata {
		return "PartialObjectMetadata"
	}
	return "Pod"
}

func (w wireFormat) apiVersion() string {
	if w.metadata {
		return "meta.k8s.io/v1"
	}
	return "v1"
}

// contentType is the Content-Type kube-apiserver answers with.
func (w wireFormat) contentType(watching bool) string {
	switch {
	case !w.protobuf:
		return "application/json"
	case watching:
		return "application/vnd.kubernetes.protobuf;stream=watch"
	}
	return "application/vnd.kubernetes.protobuf"
}

// body encodes one pod as the server's object body: JSON without kind and
// apiVersion (as a list item of pods is sent) or the protobuf message
// without its envelope. For metadata it encodes the pod's ObjectMeta as a
// PartialObjectMetadata.
func (w wireFormat) body(pod *corev1.Pod) []byte {
	var obj runtime.Object = &corev1.Pod{ObjectMeta: pod.ObjectMeta, Spec: pod.Spec, Status: pod.Status}
	if w.metadata {
		obj = &metav1.PartialObjectMetadata{ObjectMeta: pod.ObjectMeta}
	}
	var buf bytes.Buffer
	enc := runtime.Encoder(jsonSerializer)
	if w.protobuf {
		enc = protoRaw
	}
	if err := enc.Encode(obj, &buf); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// withKind returns a JSON object body with kind and apiVersion first, as
// kube-apiserver writes them.
func withKind(body []byte, kind, apiVersion string) []byte {
	head := fmt.Sprintf(`{"kind":%q,"apiVersion":%q`, kind, apiVersion)
	rest := bytes.TrimPrefix(bytes.TrimSpace(body), []byte("{"))
	if len(bytes.TrimSpace(rest)) > 0 && !bytes.HasPrefix(bytes.TrimSpace(rest), []byte("}")) {
		head += ","
	}
	return append([]byte(head), rest...)
}

// envelope wraps a protobuf message in kube-apiserver's envelope: the
// magic prefix and a runtime.Unknown naming its type.
func envelope(raw []byte, kind, apiVersion string) []byte {
	u := runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: apiVersion, Kind: kind}, Raw: raw}
	data, err := u.Marshal()
	if err != nil {
		panic(err)
	}
	return append([]byte{0x6b, 0x38, 0x73, 0x00}, data...)
}

// item returns a body as it appears in a list's items.
func (w wireFormat) item(body []byte) []byte {
	if w.metadata && !w.protobuf {
		return withKind(body, w.kind(), w.apiVersion())
	}
	return body
}

// object returns a body as a whole object: a GET answer or the object of
// a watch event.
func (w wireFormat) object(body []byte) []byte {
	if w.protobuf {
		return envelope(body, w.kind(), w.apiVersion())
	}
	return withKind(body, w.kind(), w.apiVersion())
}

// list encodes one page of a list.
func (w wireFormat) list(items [][]byte, rv int64, cont string, remaining int64) []byte {
	lm := metav1.ListMeta{ResourceVersion: strconv.FormatInt(rv, 10), Continue: cont}
	if cont != "" {
		lm.RemainingItemCount = &remaining
	}
	if w.protobuf {
		meta, err := lm.Marshal()
		if err != nil {
			panic(err)
		}
		var msg []byte
		msg = appendField(msg, 1, meta)
		for _, it := range items {
			msg = appendField(msg, 2, it)
		}
		return envelope(msg, w.kind()+"List", w.apiVersion())
	}
	meta, err := json.Marshal(lm)
	if err != nil {
		panic(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"kind":"%sList","apiVersion":%q,"metadata":%s,"items":[`, w.kind(), w.apiVersion(), meta)
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// appendField appends a length-delimited protobuf field.
func appendField(b []byte, field int, data []byte) []byte {
	b = binary.AppendUvarint(b, uint64(field)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// frame encodes one watch event around a whole object (see object).
func (w wireFormat) frame(typ watch.EventType, object []byte) []byte {
	if w.protobuf {
		ev := metav1.WatchEvent{Type: string(typ), Object: runtime.RawExtension{Raw: object}}
		data, err := ev.Marshal()
		if err != nil {
			panic(err)
		}
		return append(binary.BigEndian.AppendUint32(nil, uint32(len(data))), data...)
	}
	return fmt.Appendf(nil, `{"type":%q,"object":%s}`+"\n", typ, object)
}

// expired is the ERROR event kube-apiserver sends when a watch's resource
// version has been compacted: the reflector relists.
func (w wireFormat) expired(rv int64) []byte {
	st := &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  fmt.Sprintf("too old resource version: %d (%d)", rv, rv+1),
		Reason:   metav1.StatusReasonExpired,
		Code:     410,
	}
	var buf bytes.Buffer
	enc := runtime.Encoder(jsonSerializer)
	if w.protobuf {
		enc = protoSerializer
	}
	if err := enc.Encode(st, &buf); err != nil {
		panic(err)
	}
	return w.frame(watch.Error, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// decodeReference decodes a whole object (see object) with apimachinery's
// serializers: typed, or unstructured for the dynamic client's JSON.
func decodeReference(w wireFormat, object []byte, unstructured bool) (runtime.Object, error) {
	if unstructured {
		obj, _, err := unstructuredJSON.Decode(object, nil, nil)
		return obj, err
	}
	obj, _, err := codecs.UniversalDeserializer().Decode(object, nil, nil)
	return obj, err
}

// unstructuredJSON is apimachinery's decoder of unstructured JSON.
var unstructuredJSON = unstructured.UnstructuredJSONScheme

// podsGVR is the resource every informer here watches.
var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
