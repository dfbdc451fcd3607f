package protodecode

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/apifill"
	"github.com/kubeclient/client-go/internal/intern"
)

// key returns a field key.
func key(num, wire int) []byte { return appendVarint(nil, uint64(num<<3|wire)) }

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func lenField(num int, value []byte) []byte {
	return append(appendVarint(key(num, 2), uint64(len(value))), value...)
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestEdgeCases decodes hand-made messages that reach the quirks of the
// reference: negative int32 varints, packed and unpacked repeated
// scalars, repeated embedded messages that merge, map entries with
// missing, repeated or unknown fields, groups, truncated and overflowing
// varints, lengths past the end, and field numbers that truncate.
func TestEdgeCases(t *testing.T) {
	negative := appendVarint(nil, uint64(0xffffffffffffff9c)) // -100 as int64
	tests := []struct {
		name string
		obj  message
		data []byte
	}{
		{"negative int32", &appsv1.Deployment{}, lenField(2, cat(key(1, 0), negative))},
		{"int32 from a ten-byte varint with high bits", &appsv1.Deployment{}, lenField(2, cat(key(1, 0), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}))},
		{"eleven-byte varint", &appsv1.Deployment{}, lenField(2, cat(key(1, 0), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}))},
		{"wrong wire type", &appsv1.Deployment{}, lenField(2, cat(key(1, 2), []byte{0x01, 0x01}))},
		{"unpacked int64s", &corev1.Pod{}, lenField(2, lenField(14, cat(key(4, 0), []byte{0x05}, key(4, 0), negative)))},
		{"packed int64s", &corev1.Pod{}, lenField(2, lenField(14, lenField(4, cat([]byte{0x05, 0x06}, negative))))},
		{"packed run whose last varint overruns", &corev1.Pod{}, lenField(2, lenField(14, cat(key(4, 2), []byte{0x02, 0x05, 0x86, 0x01})))},
		{"embedded message merges", &corev1.Pod{}, cat(lenField(1, lenField(1, []byte("a"))), lenField(1, lenField(3, []byte("ns"))))},
		{"last string wins", &corev1.Pod{}, lenField(1, cat(lenField(1, []byte("a")), lenField(1, []byte("b"))))},
		{"map entry without value", &corev1.Pod{}, lenField(1, lenField(11, lenField(1, []byte("k"))))},
		{"map entry without key", &corev1.Pod{}, lenField(1, lenField(11, lenField(2, []byte("v"))))},
		{"map entry with unknown field", &corev1.Pod{}, lenField(1, lenField(11, cat(lenField(1, []byte("k")), key(3, 0), []byte{1}, lenField(2, []byte("v")))))},
		{"map entry with repeated value", &corev1.Pod{}, lenField(1, lenField(11, cat(lenField(1, []byte("k")), lenField(2, []byte("v")), lenField(2, []byte("w")))))},
		{"map entry key past the entry", &corev1.Pod{}, lenField(1, cat(key(11, 2), []byte{0x02, 0x0a, 0x03, 'a', 'b', 'c'}))},
		{"map entry key wire type ignored", &corev1.Pod{}, lenField(1, lenField(11, cat(key(1, 0), []byte{0x01, 'k'})))},
		{"quantity map entry without value", &corev1.Pod{}, lenField(2, lenField(2, lenField(8, lenField(1, lenField(1, []byte("cpu"))))))},
		{"bad quantity", &corev1.Pod{}, lenField(2, lenField(2, lenField(8, lenField(1, cat(lenField(1, []byte("cpu")), lenField(2, lenField(1, []byte("1x"))))))))},
		{"empty time", &corev1.Pod{}, lenField(1, lenField(8, nil))},
		{"time with nanos", &corev1.Pod{}, lenField(1, lenField(8, cat(key(1, 0), []byte{0x80, 0x80, 0x04}, key(2, 0), []byte{0x05})))},
		{"unknown fields and groups skipped", &corev1.Pod{}, cat(key(99, 0), []byte{1}, key(98, 1), make([]byte, 8), key(97, 5), make([]byte, 4), key(96, 3), key(1, 0), []byte{1}, key(96, 4), lenField(1, lenField(1, []byte("a"))))},
		{"unterminated group", &corev1.Pod{}, cat(key(96, 3), key(1, 0), []byte{1})},
		{"end group at top", &corev1.Pod{}, key(96, 4)},
		{"field number zero", &corev1.Pod{}, cat(key(0, 0), []byte{1})},
		{"field number truncating to metadata", &corev1.Pod{}, cat(appendVarint(nil, (1<<32|1)<<3|2), []byte{0x03, 0x0a, 0x01, 'a'})},
		{"length past the end", &corev1.Pod{}, cat(key(1, 2), []byte{0x05, 0x0a})},
		{"huge length", &corev1.Pod{}, cat(key(1, 2), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})},
		{"fixed64 past the end", &corev1.Pod{}, cat(key(50, 1), []byte{1, 2})},
		{"invalid wire type", &corev1.Pod{}, cat(key(50, 6), []byte{1})},
		{"empty bytes stay non-nil", &metav1.PartialObjectMetadata{}, lenField(1, lenField(17, lenField(7, nil)))},
		{"secret data without value", &corev1.Secret{}, lenField(2, lenField(1, []byte("k")))},
		{"deep nesting", &corev1.Pod{}, deep(200)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := reflect.TypeOf(tt.obj).Elem()
			populated := reflect.New(typ).Interface().(message)
			apifill.NewFiller(1).Fill(populated)
			compare(t, tt.data, typ, populated, tt.name)
		})
	}
}

// deep nests n groups of unknown fields inside a pod's metadata.
func deep(n int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		b = append(b, key(90, 3)...)
	}
	for i := 0; i < n; i++ {
		b = append(b, key(90, 4)...)
	}
	return lenField(1, b)
}

// TestRepeatedFieldsInSeveralRuns decodes messages whose repeated fields
// and maps have their elements in more than one run, which no encoder of
// the API server writes: the decoders make room for the first run only
// and must append the rest, without leaving the message to the reference.
func TestRepeatedFieldsInSeveralRuns(t *testing.T) {
	container := func(name string) []byte { return lenField(2, lenField(1, []byte(name))) }
	label := func(k, v string) []byte { return lenField(11, cat(lenField(1, []byte(k)), lenField(2, []byte(v)))) }
	tests := []struct {
		name string
		data []byte
	}{
		{"containers", lenField(2, cat(container("a"), container("b"), lenField(3, []byte("Always")), container("c")))},
		{"container args", lenField(2, lenField(2, cat(lenField(3, []byte("x")), lenField(1, []byte("c")), lenField(3, []byte("y")), lenField(3, []byte("z")))))},
		{"labels", lenField(1, cat(label("a", "1"), lenField(3, []byte("ns")), label("b", "2"), label("c", "3")))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want corev1.Pod
			if err := want.Unmarshal(tt.data); err != nil {
				t.Fatal(err)
			}
			for _, share := range []*intern.DecodeSharing{nil, testSharing} {
				var got corev1.Pod
				if handled, err := IntoSharing(tt.data, &got, share, true); !handled || err != nil {
					t.Fatalf("sharing %v: handled %v, %v", share != nil, handled, err)
				}
				if !reflect.DeepEqual(&got, &want) {
					t.Errorf("sharing %v: objects differ\n%s", share != nil, diff(&want, &got))
				}
			}
		})
	}
}
