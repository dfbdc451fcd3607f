package responsebody

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/fastpath"
	"github.com/kubeclient/client-go/internal/intern"
	"github.com/kubeclient/client-go/internal/wirecodec"
	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// TestDecodedObjectsOutliveTheBuffer reads lists into a Buffer, decodes
// them with each of this module's decoders (bare and decoding for a
// cache), overwrites the buffer once Decoded has returned it, as the next
// body read into it would, and checks the objects are those decoded from a
// private copy of the body: no decoder keeps a part of its input.
func TestDecodedObjectsOutliveTheBuffer(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	t.Cleanup(fastpath.GeneratedDecoders.Set(true))
	list := wiretest.PodList(150, 30)
	share := intern.NewDecodeSharing(intern.NewBytes(64, 16<<10))
	for _, mediaType := range []string{runtime.ContentTypeProtobuf, runtime.ContentTypeJSON} {
		for _, forCache := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, for a cache: %v", mediaType, forCache), func(t *testing.T) {
				decoder := moduleDecoder(t, mediaType)
				if forCache {
					decoder = wirecodec.ForContext(wirecodec.WithCacheDecoding(context.Background(), share), decoder)
				}
				sent := encodeAs(t, mediaType, list)
				body, buf, err := Read(getRequest("/outlive"), response(sent, false), true)
				if err != nil || buf == nil {
					t.Fatalf("body of %d bytes not read into a pooled buffer (%v)", len(body), err)
				}
				var got corev1.PodList
				if _, _, err := decoder.Decode(body, nil, &got); err != nil {
					t.Fatal(err)
				}
				if !buf.Decoded(decoder, &got) {
					t.Fatal("Decoded kept the buffer of a decode by this module's decoder")
				}
				scribble := buf.buf[:cap(buf.buf)]
				for i := range scribble {
					scribble[i] = 0xA5
				}
				var want corev1.PodList
				if _, _, err := decoder.Decode(sent, nil, &want); err != nil {
					t.Fatal(err)
				}
				if len(got.Items) != len(list.Items) || !reflect.DeepEqual(&got, &want) {
					t.Error("objects decoded from a pooled buffer changed when it was overwritten")
				}
			})
		}
	}
}

// TestDecodedKeepsBuffersItMustKeep: Decoded returns a buffer to the pool
// only after a decode that keeps none of the body: not into a
// runtime.Unknown, whose Raw is the body itself, nor with a decoder that
// is not this module's.
func TestDecodedKeepsBuffersItMustKeep(t *testing.T) {
	t.Cleanup(fastpath.GeneratedDecoders.Set(true))
	reference, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	for _, tc := range []struct {
		name    string
		decoder runtime.Decoder
		into    runtime.Object
		want    bool
	}{
		{"this module's decoder into a list", moduleDecoder(t, runtime.ContentTypeJSON), &corev1.PodList{}, true},
		{"this module's decoder into an Unknown", moduleDecoder(t, runtime.ContentTypeJSON), &runtime.Unknown{}, false},
		{"this module's decoder into nothing", moduleDecoder(t, runtime.ContentTypeJSON), nil, false},
		{"apimachinery's decoder", reference.Serializer, &corev1.PodList{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := takeBuffer(10).Decoded(tc.decoder, tc.into); got != tc.want {
				t.Errorf("Decoded returned the buffer: %v, want %v", got, tc.want)
			}
		})
	}
	var none *Buffer
	if none.Decoded(moduleDecoder(t, runtime.ContentTypeJSON), &corev1.PodList{}) {
		t.Error("a nil Buffer reported returned")
	}
}
