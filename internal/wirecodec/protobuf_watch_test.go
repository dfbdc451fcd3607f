package wirecodec

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/kubeclient/client-go/internal/wirecodec/wiretest"
)

// watchFrames returns WatchEvent frames as a protobuf watch stream carries
// them, and hand-made ones: repeated, empty and unknown fields, a raw
// extension without bytes, and corrupted copies.
func watchFrames(t *testing.T) [][]byte {
	t.Helper()
	objects := protobuf.NewSerializer(testScheme, testScheme)
	pod := wiretest.Pod("web")
	pod.APIVersion, pod.Kind = "v1", "Pod"
	podDoc := protobufDoc(t, objects, pod)
	var frames [][]byte
	for _, ev := range []metav1.WatchEvent{
		{Type: "ADDED", Object: runtime.RawExtension{Raw: podDoc}},
		{Type: "MODIFIED", Object: runtime.RawExtension{Raw: podDoc[:10]}},
		{Type: "BOOKMARK", Object: runtime.RawExtension{Raw: []byte{}}},
		{Type: "ERROR"},
		{},
	} {
		data, err := ev.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, data)
	}
	raw := func(b []byte) []byte { return field(2, field(1, b)) }
	frames = append(frames,
		append(raw(podDoc), raw([]byte("second"))...),
		append(field(1, []byte("ADDED")), field(1, []byte("DELETED"))...),
		append(raw(podDoc), field(2, field(3, []byte("x")))...),
		field(2, nil),
		append(field(9, []byte("unknown")), raw([]byte("x"))...),
		append([]byte{0x18, 0x01}, raw([]byte("x"))...),
		[]byte{0x0a},
		[]byte{0x12, 0x05, 0x0a, 0x09},
		[]byte{0x0b, 0x0c},
		[]byte{0x0c},
		[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
		[]byte{0x12, 0x02, 0x08, 0x01},
		[]byte{0x12, 0x01, 0x0a},
	)
	r := rand.New(rand.NewSource(1))
	n := len(frames)
	for i := 0; i < 400; i++ {
		b := append([]byte(nil), frames[r.Intn(n)]...)
		if len(b) == 0 {
			continue
		}
		switch j := r.Intn(len(b)); r.Intn(3) {
		case 0:
			b = b[:j]
		case 1:
			b[j] ^= byte(1 << r.Intn(8))
		case 2:
			b[j] = byte(r.Intn(256))
		}
		frames = append(frames, b)
	}
	return frames
}

func TestProtobufStreamSerializerMatchesReference(t *testing.T) {
	ref := protobuf.NewRawSerializer(testScheme, testScheme)
	fast := NewProtobufStreamSerializer(ref, testScheme)
	if _, ok := fast.watchEventKind(&metav1.WatchEvent{}); !ok {
		t.Fatal("the test scheme does not know WatchEvent: the in-place path is not exercised")
	}
	// One event reused across frames, as rest/watch reuses its storage.
	var reused metav1.WatchEvent
	for i, frame := range watchFrames(t) {
		want := &metav1.WatchEvent{}
		wantObj, wantKind, wantErr := ref.Decode(frame, nil, want)
		got := &metav1.WatchEvent{Object: runtime.RawExtension{Raw: reused.Object.Raw[:0]}}
		gotObj, gotKind, gotErr := fast.Decode(frame, nil, got)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(gotKind, wantKind) {
			t.Fatalf("frame %d %x: got %v %v, reference %v %v", i, frame, gotKind, gotErr, wantKind, wantErr)
		}
		if wantErr != nil {
			continue
		}
		if gotObj != got || wantObj != want || !reflect.DeepEqual(got, want) {
			t.Fatalf("frame %d %x: got %#v, reference %#v", i, frame, got, want)
		}
		if len(got.Object.Raw) > 0 && bytes.Equal(got.Object.Raw, frame[len(frame)-len(got.Object.Raw):]) && &got.Object.Raw[0] == &frame[len(frame)-len(got.Object.Raw)] {
			t.Fatalf("frame %d: the object's bytes alias the frame", i)
		}
		reused = *got
	}
}

func TestProtobufStreamSerializerLeavesOtherTargets(t *testing.T) {
	ref := protobuf.NewRawSerializer(testScheme, testScheme)
	fast := NewProtobufStreamSerializer(ref, testScheme)
	ev := metav1.WatchEvent{Type: "ADDED", Object: runtime.RawExtension{Raw: []byte("x")}}
	data, err := ev.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		into runtime.Object
	}{
		{"unknown", &runtime.Unknown{}},
		{"status", &metav1.Status{}},
		{"nil", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, wantErr := ref.Decode(data, nil, tt.into)
			_, _, gotErr := fast.Decode(data, nil, tt.into)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("got %v, reference %v", gotErr, wantErr)
			}
		})
	}
}
