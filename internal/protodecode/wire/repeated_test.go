package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

// field returns a length-delimited field numbered num holding value.
func field(num int, value []byte) []byte {
	b := binary.AppendUvarint(nil, uint64(num)<<3|wireBytes)
	b = binary.AppendUvarint(b, uint64(len(value)))
	return append(b, value...)
}

// named is a message with one string field (1), for the tests of
// AppendMessage.
type named struct{ name string }

func decodeNamed(r Reader, v *named) error {
	for r.More() {
		num, typ, err := r.Key()
		if err != nil {
			return err
		}
		if num != 1 {
			if err := r.Skip(); err != nil {
				return err
			}
			continue
		}
		b, err := r.Bytes(typ)
		if err != nil {
			return err
		}
		v.name = string(b)
	}
	return nil
}

// decodeNamedList decodes a message whose field 2 is a repeated named and
// skips the others, as the generated decoder of a list does.
func decodeNamedList(b []byte) ([]named, error) {
	r := NewReader(b).WithSlab()
	var items []named
	for r.More() {
		num, typ, err := r.Key()
		if err != nil {
			return nil, err
		}
		if num == 2 {
			err = AppendMessage(&r, typ, 2, &items, decodeNamed)
		} else {
			err = r.Skip()
		}
		if err != nil {
			return items, err
		}
	}
	return items, nil
}

func item(name string) []byte { return field(2, field(1, []byte(name))) }

// TestAppendMessage: the elements of a repeated message field decode in
// order whether they come in one run or in several, a run stops at the
// first field that is not one of its elements, and a malformed element
// fails the decode.
func TestAppendMessage(t *testing.T) {
	nonMinimalKey := []byte{2<<3 | wireBytes | 0x80, 0x00} // field 2 as a two-byte varint
	tests := []struct {
		name    string
		data    []byte
		want    []named
		wantCap int
		wantErr bool
	}{
		{name: "one", data: item("a"), want: []named{{"a"}}, wantCap: 1},
		{name: "one run", data: cat(item("a"), item("b"), item("c")), want: []named{{"a"}, {"b"}, {"c"}}, wantCap: 3},
		{name: "run, another field, run", data: cat(item("a"), item("b"), field(1, []byte("x")), item("c")),
			want: []named{{"a"}, {"b"}, {"c"}}},
		{name: "element merged from two fields", data: cat(item("a"), field(2, cat(field(1, []byte("b")), field(1, []byte("c"))))),
			want: []named{{"a"}, {"c"}}, wantCap: 2},
		{name: "non-minimal key in the run", data: cat(item("a"), nonMinimalKey, []byte{3}, field(1, []byte("b"))),
			want: []named{{"a"}, {"b"}}, wantCap: 2},
		{name: "empty element", data: cat(item("a"), field(2, nil)), want: []named{{"a"}, {}}, wantCap: 2},
		{name: "length past the end", data: cat(item("a"), []byte{2<<3 | wireBytes, 9, 1}), wantErr: true},
		{name: "malformed element", data: cat(item("a"), field(2, []byte{1<<3 | wireBytes, 5})), wantErr: true},
		{name: "truncated key after the run", data: cat(item("a"), []byte{0x80}), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeNamedList(tt.data)
			if tt.wantErr {
				if !errors.Is(err, ErrFallback) {
					t.Fatalf("err = %v, want ErrFallback", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if tt.wantCap > 0 && cap(got) != tt.wantCap {
				t.Errorf("cap = %d, want %d: room for the run, no more", cap(got), tt.wantCap)
			}
		})
	}
}

// TestSizeHint: the hint is the number of length-delimited fields of the
// number asked for from the last key read on, up to the first other
// field or the first that does not parse, and at least 1.
func TestSizeHint(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want int
	}{
		{"one", item("a"), 1},
		{"three", cat(item("a"), item("b"), item("c")), 3},
		{"stops at another field", cat(item("a"), item("b"), field(1, nil), item("c")), 2},
		{"stops at another wire type", cat(item("a"), []byte{2 << 3, 1}, item("c")), 1},
		{"stops at a length past the end", cat(item("a"), item("b"), []byte{2<<3 | wireBytes, 9}), 2},
		{"stops at a truncated key", cat(item("a"), []byte{0x80}), 1},
		{"long lengths", cat(field(2, bytes.Repeat([]byte{'x'}, 300)), field(2, bytes.Repeat([]byte{'y'}, 20000))), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(tt.data)
			if _, _, err := r.Key(); err != nil {
				t.Fatal(err)
			}
			if got := r.sizeHint(2); got != tt.want {
				t.Errorf("sizeHint = %d, want %d", got, tt.want)
			}
		})
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
