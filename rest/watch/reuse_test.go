package watch

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/internal/wirecodec"
)

// TestReusedFrameStorage decodes protobuf and JSON streams whose frames
// are read into the storage of the previous frame's object bytes (as the
// protobuf stream serializer of internal/wirecodec does) and requires the
// events, kept until the end, to equal those decoded with fresh storage.
func TestReusedFrameStorage(t *testing.T) {
	var events []watch.Event
	for i := 0; i < 20; i++ {
		p := pod(fmt.Sprintf("pod-%d-%s", i, strings.Repeat("x", (i*37)%200)))
		p.Labels = map[string]string{"i": fmt.Sprint(i)}
		p.Annotations = map[string]string{"a": strings.Repeat("y", (i*53)%300)}
		events = append(events, watch.Event{Type: watch.Modified, Object: p})
	}
	events = append(events, watch.Event{Type: watch.Error, Object: &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure, Code: 410}})
	for _, f := range formats(t) {
		t.Run(f.mediaType, func(t *testing.T) {
			var buf bytes.Buffer
			enc := f.encoder(&buf)
			for i := range events {
				if err := enc.Encode(&events[i]); err != nil {
					t.Fatal(err)
				}
			}
			stream := buf.Bytes()
			decodeAll := func(serializer runtime.Decoder) []watch.Event {
				frames := f.info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(bytes.NewReader(stream)))
				dec := NewDecoder(streaming.NewDecoder(frames, serializer), codecs.UniversalDeserializer())
				defer dec.Close()
				var out []watch.Event
				for {
					typ, obj, err := dec.Decode()
					if err == io.EOF {
						return out
					}
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, watch.Event{Type: typ, Object: obj})
				}
			}
			want := decodeAll(f.info.StreamSerializer.Serializer)
			fast := wirecodec.NewProtobufStreamSerializer(f.info.StreamSerializer.Serializer, scheme)
			got := decodeAll(fast)
			if len(want) != len(events) || !reflect.DeepEqual(got, want) {
				t.Fatalf("events differ:\n got %v\nwant %v", got, want)
			}
		})
	}
}
