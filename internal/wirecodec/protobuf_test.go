package wirecodec

import (
	"bytes"
	"math/rand"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

func protobufDoc(t *testing.T, ref runtime.Serializer, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := ref.Encode(obj, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// envelope builds a protobuf document from raw Unknown fields.
func envelope(fields ...[]byte) []byte {
	return append(append([]byte(nil), protobufPrefix...), bytes.Join(fields, nil)...)
}

func field(num int, value []byte) []byte {
	out := []byte{byte(num<<3 | 2)}
	out = appendUvarint(out, uint64(len(value)))
	return append(out, value...)
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func TestProtobufSerializerMatchesReference(t *testing.T) {
	ref := protobuf.NewSerializer(testScheme, testScheme)
	fast := NewProtobufSerializer(ref, testScheme, testScheme)
	pod := wiretest.Pod("web")
	pod.APIVersion, pod.Kind = "v1", "Pod"
	podDoc := protobufDoc(t, ref, pod)
	status := protobufDoc(t, ref, &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: "Failure", Code: 410})
	podRaw := protobufDoc(t, protobuf.NewRawSerializer(testScheme, testScheme), pod)
	typeMeta := func(apiVersion, kind string) []byte {
		return field(1, append(field(1, []byte(apiVersion)), field(2, []byte(kind))...))
	}
	docs := [][]byte{
		podDoc,
		status,
		envelope(typeMeta("v1", "Pod"), field(2, podRaw)),
		envelope(typeMeta("v1", "Pod"), field(2, podRaw), field(3, nil), field(4, []byte("application/vnd.kubernetes.protobuf"))),
		envelope(field(2, podRaw), typeMeta("v1", "Pod")),
		envelope(typeMeta("", "Pod"), field(2, podRaw)),
		envelope(typeMeta("v1", ""), field(2, podRaw)),
		envelope(typeMeta("a/b/c", "Pod"), field(2, podRaw)),
		envelope(typeMeta("apps/v1", "Pod"), field(2, podRaw)),
		envelope(typeMeta("v1", "Nope"), field(2, podRaw)),
		envelope(typeMeta("v1", "Pod"), field(2, podRaw), field(2, podRaw)),
		envelope(typeMeta("v1", "Pod"), field(2, podRaw), field(9, []byte("x"))),
		envelope(typeMeta("v1", "Pod"), field(2, podRaw[:len(podRaw)/2])),
		envelope(typeMeta("v1", "Pod"), field(2, []byte{0xff, 0xff})),
		envelope(typeMeta("v1", "Pod")),
		envelope(typeMeta("v1", "Pod"), []byte{2 << 3, 0}),
		protobufPrefix,
		nil,
		[]byte("{}"),
	}
	intos := []runtime.Object{nil, &corev1.Pod{}, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "old"}}, &corev1.ConfigMap{}, &runtime.Unknown{}, &metav1.Status{}, &unregistered{}}
	defaults := []*schema.GroupVersionKind{nil, {Version: "v1", Kind: "Pod"}, {Group: "apps", Version: "v1", Kind: "Deployment"}, {Kind: "Pod"}}
	for _, doc := range docs {
		for _, into := range intos {
			for _, d := range defaults {
				sameDecode(t, ref, fast, doc, d, into)
			}
		}
	}
	r := rand.New(rand.NewSource(7))
	for range 3000 {
		doc := append([]byte(nil), docs[r.Intn(3)]...)
		for range 1 + r.Intn(3) {
			switch at := r.Intn(len(doc)); r.Intn(3) {
			case 0:
				doc[at] = byte(r.Intn(256))
			case 1:
				doc = doc[:at]
			default:
				doc = append(doc[:at], doc[at+1:]...)
			}
			if len(doc) == 0 {
				break
			}
		}
		for _, into := range intos[:3] {
			sameDecode(t, ref, fast, doc, nil, into)
		}
	}
}
