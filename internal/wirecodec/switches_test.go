package wirecodec

import (
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// TestGeneratedDecodersSwitch: switched off, the negotiated serializer is
// the caller's own.
func TestGeneratedDecodersSwitch(t *testing.T) {
	ns := serializer.NewCodecFactory(testScheme).WithoutConversion()
	for _, on := range []bool{true, false} {
		restore := fastpath.GeneratedDecoders.Set(on)
		got := NewNegotiatedSerializer(ns)
		restore()
		_, wrapped := got.(*negotiatedSerializer)
		if wrapped != on {
			t.Errorf("switch on=%v: wrapped %v", on, wrapped)
		}
	}
}

// TestInterningSwitch decodes one pod twice: its namespace is one string
// with interning on, two copies with it off.
func TestInterningSwitch(t *testing.T) {
	ref := json.NewSerializerWithOptions(json.DefaultMetaFactory, testScheme, testScheme, json.SerializerOptions{})
	fast := NewJSONSerializer(ref, testScheme, testScheme)
	doc := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"interning-switch-test"}}`)
	for _, on := range []bool{true, false} {
		restore := fastpath.Interning.Set(on)
		var pods [2]*corev1.Pod
		for i := range pods {
			obj, _, err := fast.Decode(doc, nil, &corev1.Pod{})
			if err != nil {
				t.Fatal(err)
			}
			pods[i] = obj.(*corev1.Pod)
		}
		restore()
		same := unsafe.StringData(pods[0].Namespace) == unsafe.StringData(pods[1].Namespace)
		if same != on {
			t.Errorf("interning on=%v: one string %v", on, same)
		}
	}
}
