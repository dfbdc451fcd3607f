package watch

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() {
	utilruntime.Must(corev1.AddToScheme(scheme))
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
}

// wireFormat bundles what is needed to write and read one media type.
type wireFormat struct {
	mediaType string
	info      runtime.SerializerInfo
}

func formats(t testing.TB) []wireFormat {
	var out []wireFormat
	for _, mt := range []string{runtime.ContentTypeJSON, runtime.ContentTypeProtobuf} {
		info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), mt)
		if !ok || info.StreamSerializer == nil {
			t.Fatalf("no stream serializer for %s", mt)
		}
		out = append(out, wireFormat{mt, info})
	}
	return out
}

func (f wireFormat) encoder(w io.Writer) *Encoder {
	frames := f.info.StreamSerializer.Framer.NewFrameWriter(w)
	return NewEncoder(streaming.NewEncoder(frames, f.info.StreamSerializer.Serializer),
		codecs.EncoderForVersion(f.info.Serializer, corev1.SchemeGroupVersion))
}

func (f wireFormat) decoder(r io.ReadCloser) *Decoder {
	frames := f.info.StreamSerializer.Framer.NewFrameReader(r)
	return NewDecoder(streaming.NewDecoder(frames, f.info.StreamSerializer.Serializer), codecs.UniversalDeserializer())
}

func pod(name string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"},
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	events := []watch.Event{
		{Type: watch.Added, Object: pod("a")},
		{Type: watch.Modified, Object: pod("a")},
		{Type: watch.Bookmark, Object: pod("")},
		{Type: watch.Deleted, Object: pod("a")},
		{Type: watch.Error, Object: &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired}},
	}
	for _, f := range formats(t) {
		t.Run(f.mediaType, func(t *testing.T) {
			var buf bytes.Buffer
			enc := f.encoder(&buf)
			for i := range events {
				if err := enc.Encode(&events[i]); err != nil {
					t.Fatal(err)
				}
			}
			dec := f.decoder(io.NopCloser(&buf))
			defer dec.Close()
			for _, want := range events {
				gotType, obj, err := dec.Decode()
				if err != nil {
					t.Fatal(err)
				}
				if gotType != want.Type {
					t.Errorf("type %s, want %s", gotType, want.Type)
				}
				switch o := obj.(type) {
				case *corev1.Pod:
					if o.Name != want.Object.(*corev1.Pod).Name {
						t.Errorf("pod %q", o.Name)
					}
				case *metav1.Status:
					if !apierrors.IsResourceExpired(apierrors.FromObject(o)) {
						t.Errorf("status %+v", o)
					}
				default:
					t.Errorf("decoded %T", obj)
				}
			}
			if _, _, err := dec.Decode(); err != io.EOF {
				t.Errorf("end of stream: %v, want io.EOF", err)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	f := formats(t)[0] // JSON
	tests := map[string]string{
		"not json":          "{nope\n",
		"invalid type":      `{"type":"SHRUG","object":{"kind":"Pod","apiVersion":"v1"}}`,
		"unregistered kind": `{"type":"ADDED","object":{"kind":"Dragon","apiVersion":"v1"}}`,
		"empty object":      `{"type":"ADDED"}`,
	}
	for name, input := range tests {
		t.Run(name, func(t *testing.T) {
			dec := f.decoder(io.NopCloser(strings.NewReader(input)))
			_, obj, err := dec.Decode()
			if err == nil || errors.Is(err, io.EOF) {
				t.Errorf("decoded %v without error", obj)
			}
		})
	}
}

func TestEncodeFailure(t *testing.T) {
	f := formats(t)[0]
	enc := f.encoder(io.Discard)
	// A type that is not registered cannot be encoded.
	err := enc.Encode(&watch.Event{Type: watch.Added, Object: &metav1.PartialObjectMetadata{}})
	if err == nil {
		t.Error("encoding an unregistered type succeeded")
	}
}

type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func TestCloseClosesStream(t *testing.T) {
	f := formats(t)[0]
	body := &closeRecorder{Reader: strings.NewReader("")}
	f.decoder(body).Close()
	if !body.closed {
		t.Error("Close did not close the underlying reader")
	}
}
