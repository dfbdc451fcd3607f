package wiretest

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/internal/apifill"
)

// PodList returns a list of n realistic pods (Pod: managed fields,
// status) followed by random pods with every field filled.
func PodList(n, random int) *corev1.PodList {
	list := &corev1.PodList{}
	for i := range n {
		list.Items = append(list.Items, *Pod(fmt.Sprintf("web-%d", i)))
	}
	f := apifill.NewFiller(int64(random))
	for range random {
		var pod corev1.Pod
		f.Fill(&pod)
		list.Items = append(list.Items, pod)
	}
	return list
}

// Encode encodes obj in mediaType with codecs, as core/v1, failing t when
// it cannot.
func Encode(t testing.TB, codecs serializer.CodecFactory, mediaType string, obj runtime.Object) []byte {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		t.Fatalf("no serializer for %s", mediaType)
	}
	data, err := runtime.Encode(codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
