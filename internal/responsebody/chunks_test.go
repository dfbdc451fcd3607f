package responsebody

import (
	"bytes"
	"errors"
	"fmt"
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
	huge := payload(2*maxPresizedBody + 5) // past what is presized
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
		{"declared length too large to presize", func() io.Reader { return bytes.NewReader(payload(10)) }, 64 * maxPresizedBody},
		{"past the presized size, length declared", func() io.Reader { return bytes.NewReader(huge) }, int64(len(huge))},
		{"past the presized size, length unknown", func() io.Reader { return bytes.NewReader(huge) }, -1},
		{"past the presized size, longer than declared", func() io.Reader { return bytes.NewReader(huge) }, maxPresizedBody + 1},
		{"past the presized size, shorter than declared", func() io.Reader {
			return io.MultiReader(bytes.NewReader(huge), iotest.ErrReader(io.ErrUnexpectedEOF))
		}, int64(len(huge) + 1)},
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
	// A size hint, used when the length is unknown, may be short, exact or
	// long; the result is the same.
	for _, tc := range cases {
		for _, hint := range []int{0, 1, 99, 100, len(big), 1 << 20, len(huge), 2 * len(huge), trustFactor * len(huge), 64 << 20} {
			t.Run(fmt.Sprintf("%s/hint=%d", tc.name, hint), func(t *testing.T) {
				want, wantErr := io.ReadAll(tc.body())
				got, err := readBody(tc.body(), tc.length, hint)
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
}

// TestReadExpectedAllocatesAsBytesArrive: a body is given a buffer of its
// expected size up front only when that is modest; a larger one only once
// the bytes received reach 1/trustFactor of it, so a body far shorter than
// expected never gets one.
func TestReadExpectedAllocatesAsBytesArrive(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name      string
		expect    int
		body      int
		wantAlloc bool // alloc(expect) is called
		wantInBuf bool
	}{
		{"modest, presized", 100, 10, true, true},
		{"modest, exact", maxPresizedBody, maxPresizedBody, true, true},
		{"modest, longer", maxPresizedBody, maxPresizedBody + 1, true, false},
		{"large, a tiny body", 16 * mib, 100, false, false},
		{"large, a body just short of trust", 16 * mib, 16*mib/trustFactor - 1, false, false},
		{"large, a body reaching trust", 16 * mib, 16*mib/trustFactor + 1, true, true},
		{"large, exact", 2 * mib, 2 * mib, true, true},
		{"large, longer", 2 * mib, 3 * mib, true, false},
		{"none expected", -1, 3 * mib, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := bytes.Repeat([]byte{'k'}, tc.body)
			allocated := 0
			got, inBuf, err := readExpected(bytes.NewReader(body), tc.expect, func(n int) []byte {
				if allocated > 0 {
					t.Fatal("alloc called twice")
				}
				allocated = n
				return make([]byte, n+1)
			})
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("read %d bytes, %v; want the %d sent", len(got), err, len(body))
			}
			if (allocated > 0) != tc.wantAlloc || (tc.wantAlloc && allocated != tc.expect) {
				t.Errorf("allocated a buffer for %d bytes, want one: %v", allocated, tc.wantAlloc)
			}
			if inBuf != tc.wantInBuf {
				t.Errorf("body in the buffer: %v, want %v", inBuf, tc.wantInBuf)
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
		got, err := readBody(bytes.NewReader(body), -1, 0)
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

// readBody reads r to its end. length is the length the response declares,
// negative when unknown; hint, when positive, is the size to expect when
// it is unknown (see hint.go).
func readBody(r io.Reader, length int64, hint int) ([]byte, error) {
	body, _, err := readExpected(r, expectedSize(length, hint), func(n int) []byte { return make([]byte, n+1) })
	return body, err
}
