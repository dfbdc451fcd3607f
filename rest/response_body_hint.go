package rest

import (
	"io"
	"net/http"
	"sync"

	"github.com/kubeclient/client-go/internal/fastpath"
)

// A large body of unknown length (a LIST streamed with chunked transfer
// encoding, as kube-apiserver sends one) read in chunks is held twice
// while the chunks are joined, and the chunks are garbage afterwards: for
// a list of tens of megabytes that is the peak of the heap. The pages of
// an informer's list, or the lists a controller repeats, come back at
// about the size they had last time, so the size of the last large body
// read for a request is the hint for the next one: once it has shown to be
// large (response_body.go), the body is read into one buffer of that size,
// with some room to spare, and only what overflows it goes through chunks.
//
// A request is its method, path and query, without the parameters that
// change from one page or one list to the next while the size stays
// (continue, resourceVersion): a filtered list of a path is another
// request than the whole list.

const (
	// minHintedBody is the smallest body whose size is remembered:
	// smaller ones cost little to read in chunks.
	minHintedBody = 1 << 20
	// maxBodyHints bounds the remembered sizes; the table starts over
	// when it is full.
	maxBodyHints = 256
)

// bodyHintKey names the responses that share a size hint.
type bodyHintKey struct{ method, path, query string }

// hintKey returns the key of req's responses, ok false for none.
func hintKey(req *http.Request) (k bodyHintKey, ok bool) {
	if req == nil || req.URL == nil {
		return k, false
	}
	k = bodyHintKey{method: req.Method, path: req.URL.Path}
	if req.URL.RawQuery != "" {
		query := req.URL.Query()
		for _, varying := range []string{"continue", "resourceVersion"} {
			query.Del(varying)
		}
		k.query = query.Encode()
	}
	return k, true
}

// bodyHints holds the size of the last large body read for each request.
// Its lock guards sizes.
var bodyHints struct {
	sync.Mutex
	sizes map[bodyHintKey]int
}

// bodySizeHint returns the size to read the body of req's response into
// when its length is unknown: the last large one's plus a sixteenth, or
// 0 for none.
func bodySizeHint(req *http.Request) int {
	k, ok := hintKey(req)
	if !ok {
		return 0
	}
	bodyHints.Lock()
	n := bodyHints.sizes[k]
	bodyHints.Unlock()
	return n + n/16
}

// noteBodySize remembers n, the length of the body just read for req,
// when it is large, and forgets a hint that no longer applies.
func noteBodySize(req *http.Request, n int) {
	k, ok := hintKey(req)
	if !ok {
		return
	}
	bodyHints.Lock()
	defer bodyHints.Unlock()
	switch {
	case n >= minHintedBody:
		if bodyHints.sizes == nil || len(bodyHints.sizes) >= maxBodyHints {
			bodyHints.sizes = make(map[bodyHintKey]int)
		}
		bodyHints.sizes[k] = n
	case bodyHints.sizes != nil:
		delete(bodyHints.sizes, k)
	}
}

// readResponseBody reads resp's body whole, presized from its declared
// length or else from the size hint of req, and updates the hint.
func readResponseBody(req *http.Request, resp *http.Response) ([]byte, error) {
	body, _, err := readResponseBodyReusing(req, resp, false)
	return body, err
}

// readResponseBodyReusing reads resp's body as readResponseBody does; with
// reuse, a body of a page's size is read into a pooled buffer, returned as
// well (see response_body_reuse.go). A nil buffer means the body has a
// buffer of its own. With the fastpath.BodyPool switch off, it reads the
// body as client-go does: io.ReadAll, no hints, no pooled buffer.
func readResponseBodyReusing(req *http.Request, resp *http.Response, reuse bool) ([]byte, *reusableBody, error) {
	if !fastpath.BodyPool.On() {
		body, err := io.ReadAll(resp.Body)
		return body, nil, err
	}
	hint := 0
	if resp.ContentLength < 0 {
		hint = bodySizeHint(req)
	}
	expect := expectedSize(resp.ContentLength, hint)
	var pooled *reusableBody
	alloc := func(n int) []byte { return make([]byte, n+1) }
	if reuse && expect >= minReusedBody && expect <= maxReusedBody {
		alloc = func(n int) []byte {
			pooled = takeReusableBody(n)
			return pooled.buf
		}
	}
	body, inBuf, err := readExpected(resp.Body, expect, alloc)
	if !inBuf { // read in chunks, or overflowed the buffer
		pooled.release()
		pooled = nil
	}
	if resp.ContentLength < 0 {
		noteBodySize(req, len(body))
	}
	return body, pooled, err
}
