package wire

import (
	"encoding/binary"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestTimestamp: timestamp reads what metav1.Timestamp's Unmarshal
// reads, and fails where it fails, for the message a Time is written as
// (its seconds alone) and for every other.
func TestTimestamp(t *testing.T) {
	varint := func(num int, v uint64) []byte {
		return binary.AppendUvarint([]byte{byte(num<<3 | wireVarint)}, v)
	}
	negative := uint64(1<<64 - 100) // -100 seconds
	tests := []struct {
		name string
		data []byte
	}{
		{"seconds", varint(1, 1700000000)},
		{"one-byte seconds", varint(1, 5)},
		{"zero seconds", varint(1, 0)},
		{"negative seconds", varint(1, negative)},
		{"seconds and nanos", cat(varint(1, 1700000000), varint(2, 500))},
		{"nanos and seconds", cat(varint(2, 500), varint(1, 1700000000))},
		{"nanos", varint(2, 7)},
		{"seconds twice", cat(varint(1, 1), varint(1, 2))},
		{"unknown field", cat(varint(1, 1700000000), field(5, []byte("x")))},
		{"truncated seconds", varint(1, 1700000000)[:3]},
		{"seconds of eleven bytes", append([]byte{1 << 3}, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01)},
		{"seconds as bytes", field(1, []byte{1})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want metav1.Timestamp
			wantErr := want.Unmarshal(tt.data)
			seconds, nanos, err := timestamp(tt.data)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("err = %v, the reference's %v", err, wantErr)
			}
			if err == nil && (seconds != want.Seconds || nanos != want.Nanos) {
				t.Errorf("got %d s %d ns, want %d s %d ns", seconds, nanos, want.Seconds, want.Nanos)
			}
		})
	}
}
