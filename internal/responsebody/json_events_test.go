package responsebody

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"

	"github.com/kubeclient/client-go/internal/jsonscan"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// chunkedBody serves data in the chunk sizes given (the last one repeated),
// then fails with err, again on every later read. With errWithData the
// error comes with the last bytes.
type chunkedBody struct {
	data        []byte
	chunks      []int
	err         error
	errWithData bool
	closed      bool
}

func (b *chunkedBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, b.err
	}
	size := b.chunks[0]
	if len(b.chunks) > 1 {
		b.chunks = b.chunks[1:]
	}
	n := copy(p[:min(len(p), size)], b.data)
	b.data = b.data[n:]
	if len(b.data) == 0 && b.errWithData {
		return n, b.err
	}
	return n, nil
}

func (b *chunkedBody) Close() error { b.closed = true; return nil }

type decodedEvent struct {
	event *metav1.WatchEvent
	err   string
	cut   *streamCutError
}

// decodeAll decodes events until the first error, at most 100.
func decodeAll(events streaming.Decoder) []decodedEvent {
	var out []decodedEvent
	for len(out) < 100 {
		var e metav1.WatchEvent
		_, _, err := events.Decode(nil, &e)
		if err != nil {
			var cut *streamCutError
			errors.As(err, &cut)
			return append(out, decodedEvent{err: fmt.Sprintf("%T %v", err, err), cut: cut})
		}
		out = append(out, decodedEvent{event: &e})
	}
	return out
}

// referenceEvents is the reference chain jsonEventStream must match:
// cutDetectingBody, json.Framer and streaming.NewDecoder.
func referenceEvents(body io.ReadCloser, decoder runtime.Decoder) streaming.Decoder {
	return streaming.NewDecoder(json.Framer.NewFrameReader(&cutDetectingBody{body: body, frames: &jsonscan.Scanner{}}), decoder)
}

var streamFrames = []string{
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","annotations":{"x":"}\"{"}}}}`,
	`{"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"},"spec":{"containers":[{"name":"c"}]}}}`,
	`{"type":"DELETED","object":null}`,
	`{"object":{"kind":"Status","apiVersion":"v1"},"type":"ERROR"}`,
	`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12"}},"kind":"WatchEvent"}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"\u00e9\\"}}}`,
	`{}`,
}

var streamOddities = []string{
	`{"type":"ADDED","object":{"a":01}}`,
	`{"type":"ADDED","object":{"a":[}}}`,
	`{"type":"ADDED" "object":1}`,
	`[1,2]`,
	`"text"`,
	`42 `,
	`}`,
	`x`,
	`{"type":"ADDED","object":{"a":"unterminated}}`,
	"{\"type\":\"A\x01\"}",
}

func randomStream(r *rand.Rand) string {
	var b strings.Builder
	for range r.Intn(6) {
		b.WriteString([]string{"", "\n", " ", "\r\n\t"}[r.Intn(4)])
		if r.Intn(8) == 0 {
			b.WriteString(streamOddities[r.Intn(len(streamOddities))])
			continue
		}
		b.WriteString(streamFrames[r.Intn(len(streamFrames))])
	}
	if r.Intn(3) == 0 {
		frame := streamFrames[r.Intn(len(streamFrames))]
		b.WriteString(frame[:r.Intn(len(frame))])
	}
	return b.String()
}

// TestJSONEventStreamMatchesReference reads random streams, cut anywhere and
// delivered in random chunks, through jsonEventStream and through the
// reference chain, and compares events, errors and cut reports.
func TestJSONEventStreamMatchesReference(t *testing.T) {
	ends := []error{io.EOF, io.ErrUnexpectedEOF, errors.New("connection reset by peer"), errors.New("boom"), context.Canceled}
	decoders := map[string]runtime.Decoder{
		"reference": testCodecs.UniversalDeserializer(),
		"wirecodec": wirecodec.NewJSONSerializer(json.NewSerializerWithOptions(json.DefaultMetaFactory, testScheme, testScheme, json.SerializerOptions{}), testScheme, testScheme),
	}
	r := rand.New(rand.NewSource(4))
	for i := range 6000 {
		stream := randomStream(r)
		chunks := []int{1 + r.Intn(64), 1 + r.Intn(8), 1 + r.Intn(200)}
		end := ends[r.Intn(len(ends))]
		withData := r.Intn(2) == 0
		for name, decoder := range decoders {
			fast := &chunkedBody{data: []byte(stream), chunks: chunks, err: end, errWithData: withData}
			ref := &chunkedBody{data: []byte(stream), chunks: chunks, err: end, errWithData: withData}
			fastEvents := newJSONEventStream(fast, decoder)
			got := decodeAll(fastEvents)
			want := decodeAll(referenceEvents(ref, decoder))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("case %d (%s) %q chunks %v end %v with data %v:\ngot  %s\nwant %s", i, name, stream, chunks, end, withData, describe(got), describe(want))
			}
			if err := fastEvents.Close(); err != nil || !fast.closed {
				t.Fatalf("Close: %v, body closed %v", err, fast.closed)
			}
		}
	}
}

func describe(events []decodedEvent) string {
	var parts []string
	for _, e := range events {
		if e.event != nil {
			parts = append(parts, fmt.Sprintf("%s:%s", e.event.Type, e.event.Object.Raw))
			continue
		}
		parts = append(parts, "error "+e.err)
	}
	return strings.Join(parts, " | ")
}

func TestJSONEventStreamFrameTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 16 MB frame")
	}
	big := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"` + strings.Repeat("x", maxFrameSize) + `"}}}`
	stream := big + "\n" + streamFrames[0]
	decoder := testCodecs.UniversalDeserializer()
	got := decodeAll(newJSONEventStream(&chunkedBody{data: []byte(stream), chunks: []int{1 << 20}, err: io.EOF}, decoder))
	want := decodeAll(referenceEvents(&chunkedBody{data: []byte(stream), chunks: []int{1 << 20}, err: io.EOF}, decoder))
	if !reflect.DeepEqual(got, want) || len(got) != 1 {
		t.Fatalf("got %s\nwant %s", describe(got), describe(want))
	}
}

// endlessBody serves data in 4 KB chunks, then fails the test if read
// further: a malformed frame must be reported before the body ends.
type endlessBody struct {
	t    *testing.T
	data []byte
}

func (b *endlessBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		b.t.Error("body read to its end before the malformed frame was reported")
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 4096)], b.data)
	b.data = b.data[n:]
	return n, nil
}

func (b *endlessBody) Close() error { return nil }

func TestJSONEventStreamUnbalancedFrameReportedEarly(t *testing.T) {
	stream := `{"type":"ADDED","object":{"a":[}}` + strings.Repeat(streamFrames[0], 2*minCheckedPrefix/len(streamFrames[0]))
	decoder := testCodecs.UniversalDeserializer()
	got := decodeAll(newJSONEventStream(&endlessBody{t: t, data: []byte(stream)}, decoder))
	want := decodeAll(referenceEvents(&endlessBody{t: t, data: []byte(stream)}, decoder))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %s\nwant %s", describe(got), describe(want))
	}
}

// TestJSONEventStreamSplitAtEveryByte delivers a stream of every frame and
// one oddity in two reads split at each byte in turn, through the
// wirecodec serializer's one-pass frame decoding, and compares with the
// reference chain.
func TestJSONEventStreamSplitAtEveryByte(t *testing.T) {
	decoder := wirecodec.NewJSONSerializer(json.NewSerializerWithOptions(json.DefaultMetaFactory, testScheme, testScheme, json.SerializerOptions{}), testScheme, testScheme)
	valid := strings.Join(streamFrames, "\n")
	for _, stream := range []string{valid, valid + streamOddities[0] + streamFrames[0], valid + streamOddities[8]} {
		for split := range len(stream) + 1 {
			for _, end := range []error{io.EOF, io.ErrUnexpectedEOF} {
				chunks := []int{max(split, 1), len(stream)}
				if split == 0 {
					chunks = []int{len(stream) + 1}
				}
				got := decodeAll(newJSONEventStream(&chunkedBody{data: []byte(stream), chunks: chunks, err: end}, decoder))
				want := decodeAll(referenceEvents(&chunkedBody{data: []byte(stream), chunks: chunks, err: end}, decoder))
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%q split at %d, end %v:\ngot  %s\nwant %s", stream, split, end, describe(got), describe(want))
				}
			}
		}
	}
}
