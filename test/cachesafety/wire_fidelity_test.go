package cachesafety

import (
	"bytes"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
)

// TestWireIsApimachinerys checks that the fake server's bytes are
// apimachinery's: a list page, a whole object and a watch frame, for each
// wire format, equal what its serializers (and its streaming encoder, the
// one kube-apiserver's watch uses) write for the same objects.
func TestWireIsApimachinerys(t *testing.T) {
	pods := []*corev1.Pod{fixturePod(0, 50, 3, 11, 0, 0), fixturePod(1, 50, 3, 12, 1, 1)}
	for _, wire := range []wireFormat{{}, {protobuf: true}, {metadata: true}, {protobuf: true, metadata: true}} {
		t.Run(wire.String(), func(t *testing.T) {
			mediaType := "application/json"
			if wire.protobuf {
				mediaType = "application/vnd.kubernetes.protobuf"
			}
			info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), mediaType)
			if !ok {
				t.Fatalf("no serializer for %s", mediaType)
			}
			encode := func(obj runtime.Object) []byte {
				var b bytes.Buffer
				if err := info.Serializer.Encode(obj, &b); err != nil {
					t.Fatal(err)
				}
				return b.Bytes()
			}
			remaining := int64(7)
			lm := metav1.ListMeta{ResourceVersion: "12", Continue: "0-2", RemainingItemCount: &remaining}
			var wantList, wantObject runtime.Object
			if wire.metadata {
				l := &metav1.PartialObjectMetadataList{TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: "meta.k8s.io/v1"}, ListMeta: lm}
				for _, p := range pods {
					l.Items = append(l.Items, metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"}, ObjectMeta: p.ObjectMeta})
				}
				wantList = l
				wantObject = &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"}, ObjectMeta: pods[1].ObjectMeta}
			} else {
				l := &corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, ListMeta: lm}
				for _, p := range pods {
					l.Items = append(l.Items, *p)
				}
				wantList = l
				o := pods[1].DeepCopy()
				o.TypeMeta = metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"}
				wantObject = o
			}
			items := [][]byte{wire.item(wire.body(pods[0])), wire.item(wire.body(pods[1]))}
			if got, want := wire.list(items, 12, "0-2", 7), encode(wantList); !bytes.Equal(got, want) {
				t.Errorf("list page:\n got %q\nwant %q", got, want)
			}
			object := wire.object(wire.body(pods[1]))
			if want := bytes.TrimSuffix(encode(wantObject), []byte("\n")); !bytes.Equal(object, want) {
				t.Errorf("object:\n got %q\nwant %q", object, want)
			}

			var b bytes.Buffer
			enc := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(&b), info.StreamSerializer.Serializer)
			if err := enc.Encode(&metav1.WatchEvent{Type: string(watch.Modified), Object: runtime.RawExtension{Raw: object}}); err != nil {
				t.Fatal(err)
			}
			if got := wire.frame(watch.Modified, object); !bytes.Equal(got, b.Bytes()) {
				t.Errorf("watch frame:\n got %q\nwant %q", got, b.Bytes())
			}
		})
	}
}
