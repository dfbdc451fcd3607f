package rest

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestReadBody(t *testing.T) {
	payload := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		return b
	}
	errBroken := errors.New("connection reset")
	big := payload(3*bodyChunkSize + 17)
	cases := []struct {
		name   string
		body   func() io.Reader
		length int64
	}{
		{"empty, length declared", func() io.Reader { return bytes.NewReader(nil) }, 0},
		{"empty, length unknown", func() io.Reader { return bytes.NewReader(nil) }, -1},
		{"small, length declared", func() io.Reader { return bytes.NewReader(payload(100)) }, 100},
		{"small, length unknown", func() io.Reader { return bytes.NewReader(payload(100)) }, -1},
		{"exactly one chunk, length unknown", func() io.Reader { return bytes.NewReader(payload(bodyChunkSize)) }, -1},
		{"several chunks, length unknown", func() io.Reader { return bytes.NewReader(big) }, -1},
		{"several chunks, length declared", func() io.Reader { return bytes.NewReader(big) }, int64(len(big))},
		{"one byte per read, length unknown", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(big)) }, -1},
		{"one byte per read, length declared", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(payload(300))) }, 300},
		{"half per read", func() io.Reader { return iotest.HalfReader(bytes.NewReader(big)) }, -1},
		{"data with EOF", func() io.Reader { return iotest.DataErrReader(bytes.NewReader(payload(1000))) }, -1},
		{"shorter than declared", func() io.Reader { return bytes.NewReader(payload(10)) }, 500},
		{"longer than declared", func() io.Reader { return bytes.NewReader(big) }, 10},
		{"longer than declared by one byte", func() io.Reader { return bytes.NewReader(payload(11)) }, 10},
		{"declared length too large to presize", func() io.Reader { return bytes.NewReader(payload(10)) }, maxPresizedBody},
		{"error after data, length unknown", func() io.Reader {
			return io.MultiReader(bytes.NewReader(big), iotest.ErrReader(errBroken))
		}, -1},
		{"error after data, length declared", func() io.Reader {
			return io.MultiReader(bytes.NewReader(payload(70)), iotest.ErrReader(errBroken))
		}, 100},
		{"error at once", func() io.Reader { return iotest.ErrReader(errBroken) }, -1},
		{"unexpected EOF", func() io.Reader {
			return io.MultiReader(bytes.NewReader(payload(40)), iotest.ErrReader(io.ErrUnexpectedEOF))
		}, 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := io.ReadAll(tc.body())
			got, err := readBody(tc.body(), tc.length)
			if !errors.Is(err, wantErr) || (err == nil) != (wantErr == nil) {
				t.Fatalf("error %v, io.ReadAll's %v", err, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("read %d bytes, io.ReadAll %d", len(got), len(want))
			}
			if got == nil {
				t.Fatal("nil body; io.ReadAll never returns nil")
			}
		})
	}
}

// TestReadBodyOwnsItsBytes reads bodies in turn through the chunk pool:
// no result may change when a later body is read.
func TestReadBodyOwnsItsBytes(t *testing.T) {
	var results [][]byte
	for i := 0; i < 4; i++ {
		body := bytes.Repeat([]byte{byte('0' + i)}, 2*bodyChunkSize+i)
		got, err := readBody(bytes.NewReader(body), -1)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, got)
	}
	for i, got := range results {
		if want := bytes.Repeat([]byte{byte('0' + i)}, 2*bodyChunkSize+i); !bytes.Equal(got, want) {
			t.Errorf("body %d changed after later reads", i)
		}
	}
}
