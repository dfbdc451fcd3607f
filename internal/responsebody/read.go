package responsebody

import (
	"io"
	"net/http"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// Read reads resp's body whole, as io.ReadAll would: presized from its
// declared length or else from the size hint of req, whose hint it
// updates (hint.go), and read through pooled chunks (chunks.go).
//
// decodeOnce says that the caller decodes the body once and then drops
// it, handing it to nobody: a body of a page's size may then be read into
// a pooled Buffer, returned as well, which the caller gives back with
// Buffer.Decoded. A nil Buffer means the body has a memory of its own.
// On an error, the bytes read before it are returned, and the Buffer is
// nil.
//
// With the fastpath.BodyPool switch off, Read reads the body as client-go
// does: io.ReadAll, no hints, no pooled buffer.
func Read(req *http.Request, resp *http.Response, decodeOnce bool) ([]byte, *Buffer, error) {
	if !fastpath.BodyPool.On() {
		body, err := io.ReadAll(resp.Body)
		return body, nil, err
	}
	hint := 0
	if resp.ContentLength < 0 {
		hint = bodySizeHint(req)
	}
	expect := expectedSize(resp.ContentLength, hint)
	var pooled *Buffer
	alloc := func(n int) []byte { return make([]byte, n+1) }
	if decodeOnce && expect >= minReusedBody && expect <= maxReusedBody {
		alloc = func(n int) []byte {
			pooled = takeBuffer(n)
			return pooled.buf
		}
	}
	body, inBuf, err := readExpected(resp.Body, expect, alloc)
	if !inBuf || err != nil { // read in chunks, overflowed the buffer, or failed
		pooled.Release()
		pooled = nil
	}
	if resp.ContentLength < 0 {
		noteBodySize(req, len(body))
	}
	return body, pooled, err
}
