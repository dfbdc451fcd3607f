package responsebody

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// readRuns counts the runs of the tests below that leave size hints, which
// are process-wide: each run (-count) reads from paths of its own.
var readRuns atomic.Int32

// TestReadDecodeOnce checks which bodies Read puts into a pooled Buffer:
// only bodies the caller decodes once, of a page's size, whose size is
// known (declared, or hinted by the last body of the same request) and
// that fit the buffer; and that every body read is the one sent.
func TestReadDecodeOnce(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	page := bytes.Repeat([]byte("p"), minReusedBody+100)
	hinted := bytes.Repeat([]byte("h"), minHintedBody+100) // leaves a size hint
	larger := bytes.Repeat([]byte("l"), minHintedBody*3/2)
	run := strconv.Itoa(int(readRuns.Add(1)))
	for _, tc := range []struct {
		name       string
		path       string // rows sharing one see each other's size hints
		body       []byte
		chunked    bool
		decodeOnce bool
		want       bool
	}{
		{"decoded once, declared length", "declared", page, false, true, true},
		{"not decoded once", "declared", page, false, false, false},
		{"decoded once, small body", "small", []byte("{}"), false, true, false},
		{"decoded once, body larger than a page", "huge", make([]byte, maxReusedBody+1), false, true, false},
		{"decoded once, unknown length, no hint yet", "chunked", hinted, true, true, false},
		{"decoded once, unknown length, hinted by the last body", "chunked", hinted, true, true, true},
		{"decoded once, unknown length, past the hint", "chunked", larger, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, buf, err := Read(getRequest("/"+tc.path+"-"+run), response(tc.body, tc.chunked), tc.decodeOnce)
			if err != nil || !bytes.Equal(body, tc.body) {
				t.Fatalf("read %d bytes, %v; want the %d sent", len(body), err, len(tc.body))
			}
			if got := buf != nil; got != tc.want {
				t.Errorf("read into a pooled buffer: %v, want %v", got, tc.want)
			}
			if buf != nil && cap(body) != len(body) {
				t.Errorf("body has capacity %d past its length %d", cap(body), len(body))
			}
			buf.Release()
		})
	}
}

// TestReadFailsWithoutBuffer: a body that fails part-way returns what was
// read and the error, and no Buffer to return.
func TestReadFailsWithoutBuffer(t *testing.T) {
	defer fastpath.BodyPool.Set(true)()
	page := bytes.Repeat([]byte("p"), minReusedBody+100)
	broken := &http.Response{
		StatusCode:    http.StatusOK,
		Body:          io.NopCloser(io.MultiReader(bytes.NewReader(page[:minReusedBody]), errReader{io.ErrUnexpectedEOF})),
		ContentLength: int64(len(page)),
	}
	body, buf, err := Read(getRequest("/broken"), broken, true)
	if err != io.ErrUnexpectedEOF || len(body) != minReusedBody || buf != nil {
		t.Errorf("read %d bytes, %v, buffer %v; want %d, the error and none", len(body), err, buf != nil, minReusedBody)
	}
}

// TestReadBodyPoolSwitch reads the bodies that the fast path pools or
// remembers the size of, with the fastpath.BodyPool switch on and off:
// off, no body is read into a pooled buffer and no size hint is noted,
// used or forgotten; the bodies read are the same.
func TestReadBodyPoolSwitch(t *testing.T) {
	page := bytes.Repeat([]byte("p"), minReusedBody+100)
	large := bytes.Repeat([]byte("l"), minHintedBody+100)
	small := []byte("{}")
	for _, on := range []bool{true, false} {
		t.Run(fmt.Sprintf("on=%v", on), func(t *testing.T) {
			defer fastpath.BodyPool.Set(on)()
			req := getRequest(fmt.Sprintf("/switch-%v-%d", on, readRuns.Add(1)))
			read := func(body []byte, chunked bool) *Buffer {
				t.Helper()
				got, buf, err := Read(req, response(body, chunked), true)
				if err != nil || !bytes.Equal(got, body) {
					t.Fatalf("read %d bytes, %v; want the %d sent", len(got), err, len(body))
				}
				return buf
			}
			hinted := func() bool { return bodySizeHint(req) > 0 }

			buf := read(page, false)
			if (buf != nil) != on {
				t.Errorf("a page decoded once read into a pooled buffer: %v", buf != nil)
			}
			buf.Release()
			read(large, true)
			if hinted() != on {
				t.Errorf("a large body of unknown length left a hint: %v", hinted())
			}
			// A hint left while the switch was on stays when it is off.
			noteBodySize(req, len(large))
			defer noteBodySize(req, 0)
			read(small, true)
			if hinted() == on {
				t.Errorf("a small body of unknown length forgot the hint: %v", !hinted())
			}
		})
	}
}
