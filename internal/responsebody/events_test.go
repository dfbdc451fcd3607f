package responsebody

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// watchStream returns the frames of two watch events of mediaType, as a
// server sends them, and the length of the second.
func watchStream(t *testing.T, mediaType string) (stream []byte, last int) {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), mediaType)
	if !ok || info.StreamSerializer == nil {
		t.Fatalf("no stream serializer for %s", mediaType)
	}
	var buf bytes.Buffer
	frames := info.StreamSerializer.Framer.NewFrameWriter(&buf)
	for _, name := range []string{"first", `second "quoted" {name}`} {
		event := metav1.WatchEvent{Type: "ADDED", Object: runtime.RawExtension{Raw: encodeAs(t, mediaType, wiretest.Pod(name))}}
		var frame bytes.Buffer
		if err := info.StreamSerializer.Serializer.Encode(&event, &frame); err != nil {
			t.Fatal(err)
		}
		before := buf.Len()
		if _, err := frames.Write(frame.Bytes()); err != nil {
			t.Fatal(err)
		}
		last = buf.Len() - before
	}
	return buf.Bytes(), last
}

// TestEventsKeepTheCut reads watch streams that end between events or
// inside one, in each format whose frames are followed: Decode meets the
// error the reference's stream decoder meets (io.EOF between events,
// io.ErrUnexpectedEOF or the connection's error inside one), and CutError
// reports exactly the cuts inside an event.
func TestEventsKeepTheCut(t *testing.T) {
	errReset := errors.New("connection reset by peer")
	for _, mediaType := range []string{runtime.ContentTypeJSON, runtime.ContentTypeProtobuf} {
		stream, last := watchStream(t, mediaType)
		first := len(stream) - last
		for _, tc := range []struct {
			name    string
			sent    int   // bytes of the stream sent
			end     error // what the body returns after them
			wantErr error // the second Decode's error
			wantCut bool
		}{
			{"ends between events", first, io.EOF, io.EOF, false},
			{"ends after the last event", len(stream), io.EOF, io.EOF, false},
			{"ends inside the first byte", first + 1, io.EOF, io.ErrUnexpectedEOF, true},
			{"ends mid-event", first + last/2, io.EOF, io.ErrUnexpectedEOF, true},
			{"ends short of the last byte", len(stream) - 2, io.EOF, io.ErrUnexpectedEOF, true},
			{"breaks mid-event", first + last/2, errReset, errReset, true},
		} {
			t.Run(mediaType+"/"+tc.name, func(t *testing.T) {
				info, _ := runtime.SerializerInfoForMediaType(testCodecs.SupportedMediaTypes(), mediaType)
				body := io.NopCloser(io.MultiReader(bytes.NewReader(stream[:tc.sent]), errReader{tc.end}))
				events := NewEvents(body, mediaType, info.StreamSerializer.Framer, info.StreamSerializer.Serializer)
				defer events.Close()
				var event metav1.WatchEvent
				if _, _, err := events.Decode(nil, &event); err != nil {
					t.Fatalf("first event: %v", err)
				}
				if tc.sent == len(stream) {
					if _, _, err := events.Decode(nil, &event); err != nil {
						t.Fatalf("second event: %v", err)
					}
				}
				_, _, err := events.Decode(nil, &event)
				if !errors.Is(err, tc.wantErr) {
					t.Errorf("Decode: %v, want %v", err, tc.wantErr)
				}
				cut := events.CutError()
				switch {
				case tc.wantCut && (cut == nil || !strings.Contains(cut.Error(), "cut in the middle of an event")):
					t.Errorf("CutError: %v, want the cut", cut)
				case !tc.wantCut && cut != nil:
					t.Errorf("CutError: %v, want nil", cut)
				}
			})
		}
	}
}
