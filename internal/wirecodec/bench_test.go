package wirecodec

import (
	stdjson "encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// BenchmarkDecodeWatchEventFrame decodes one watch event frame of a ~6 KB
// pod, envelope then object, as rest/watch does: with the reference, and
// with JSONSerializer whose generated decoder is stood in for by
// sigs.k8s.io/json (generatedLike), so that the difference is what the
// peek and the envelope save, whatever the generated decoders add.
func BenchmarkDecodeWatchEventFrame(b *testing.B) {
	pod, err := stdjson.Marshal(wiretest.Pod("web-1"))
	if err != nil {
		b.Fatal(err)
	}
	frame := append(append([]byte(`{"type":"MODIFIED","object":`), pod...), '}')
	ref, fast := newTestSerializers()
	for _, tc := range []struct {
		name    string
		decoder runtime.Decoder
	}{{"reference", ref}, {"wirecodec", fast}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				var event metav1.WatchEvent
				if _, _, err := tc.decoder.Decode(frame, nil, &event); err != nil {
					b.Fatal(err)
				}
				if _, _, err := tc.decoder.Decode(event.Object.Raw, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
