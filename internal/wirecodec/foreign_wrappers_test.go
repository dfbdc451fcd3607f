package wirecodec

import (
	"context"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestForContextSeesThroughKnownWrappers: a cache-decoding request whose
// decoder is a known wrapper of this package's decoder gets a sharing
// decoder with the wrapper's behaviour; an unknown wrapper gets none.
func TestForContextSeesThroughKnownWrappers(t *testing.T) {
	defer fastpath.GeneratedDecoders.Set(true)()
	defer func(saved []foreignWrapper) { foreignWrappers = saved }(foreignWrappers)
	foreignWrappers = append(foreignWrappers, foreignWrapper{
		pkgPath: reflect.TypeFor[zeroingDecoder]().PkgPath(), name: "zeroingDecoder", field: "upstream", rewrap: zeroingTarget,
	})
	codecs := NewNegotiatedSerializer(zeroingCodecs{serializer.NewCodecFactory(testScheme).WithoutConversion()})
	ref := wiretest.ReferenceCodecs(zeroingCodecs{serializer.NewCodecFactory(testScheme).WithoutConversion()})
	for _, mediaType := range []string{runtime.ContentTypeJSON, runtime.ContentTypeProtobuf} {
		doc := mustJSON(t, wiretest.Pod("shared"))
		if mediaType == runtime.ContentTypeProtobuf {
			doc = mustProto(t, wiretest.Pod("shared"))
		}
		tests := []struct {
			name    string
			decoder runtime.Decoder
			shared  bool
		}{
			{"known wrapper", decoderFor(t, codecs, mediaType, corev1.SchemeGroupVersion), true},
			{"unknown wrapper", otherWrapper{decoderFor(t, codecs, mediaType, corev1.SchemeGroupVersion)}, false},
		}
		for _, tc := range tests {
			t.Run(mediaType+"/"+tc.name, func(t *testing.T) {
				var seen SharedDecodes
				ctx := WithSharedDecodes(WithCacheDecoding(context.Background(), intern.NewDecodeSharing(intern.NewBytes(16, 16<<10))), &seen)
				d := ForContext(ctx, tc.decoder)
				if seen.Seen() != tc.shared {
					t.Fatalf("sharing decoder reported %v, want %v", seen.Seen(), tc.shared)
				}
				if _, isZeroing := d.(targetZeroing); isZeroing != tc.shared {
					t.Fatalf("got %T", d)
				}
				stale := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"stale": "x"}}, Spec: corev1.PodSpec{Hostname: "stale"}}
				got, _, err := d.Decode(doc, nil, stale)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := decoderFor(t, ref, mediaType, corev1.SchemeGroupVersion).Decode(doc, nil, &corev1.Pod{})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("decoded\n got %#v\nwant %#v", got, want)
				}
			})
		}
	}
}

// otherWrapper is a wrapper ForContext does not know.
type otherWrapper struct{ upstream runtime.Decoder }

func (o otherWrapper) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	return o.upstream.Decode(data, defaults, into)
}
