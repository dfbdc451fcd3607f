package rest

import (
	"net/http"
	"sync"
)

// A large body of unknown length (a LIST streamed with chunked transfer
// encoding, as kube-apiserver sends one) read in chunks is held twice
// while the chunks are joined, and the chunks are garbage afterwards: for
// a list of tens of megabytes that is the peak of the heap. The pages of
// an informer's list, or the lists a controller repeats, come back at
// about the size they had last time, so the size of the last large body
// read for a method and path is the hint for the next one: the body is
// read into one buffer of that size, with some room to spare, and only
// what overflows it goes through chunks.

const (
	// minHintedBody is the smallest body whose size is remembered:
	// smaller ones cost little to read in chunks.
	minHintedBody = 1 << 20
	// maxBodyHints bounds the remembered sizes; the table starts over
	// when it is full.
	maxBodyHints = 256
)

// bodyHintKey names the responses that share a size hint.
type bodyHintKey struct{ method, path string }

// bodyHints holds the size of the last large body read for each method
// and path. Its lock guards sizes.
var bodyHints struct {
	sync.Mutex
	sizes map[bodyHintKey]int
}

// bodySizeHint returns the size to read the body of req's response into
// when its length is unknown: the last large one's plus a sixteenth, or
// 0 for none.
func bodySizeHint(req *http.Request) int {
	if req == nil || req.URL == nil {
		return 0
	}
	bodyHints.Lock()
	n := bodyHints.sizes[bodyHintKey{req.Method, req.URL.Path}]
	bodyHints.Unlock()
	return n + n/16
}

// noteBodySize remembers n, the length of the body just read for req,
// when it is large, and forgets a hint that no longer applies.
func noteBodySize(req *http.Request, n int) {
	if req == nil || req.URL == nil {
		return
	}
	k := bodyHintKey{req.Method, req.URL.Path}
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
// reuse, a large presized body is read into a pooled buffer, returned as
// well (see response_body_reuse.go). A nil buffer means the body has a
// buffer of its own.
func readResponseBodyReusing(req *http.Request, resp *http.Response, reuse bool) ([]byte, *reusableBody, error) {
	hint := 0
	if resp.ContentLength < 0 {
		hint = bodySizeHint(req)
	}
	var body []byte
	var pooled *reusableBody
	var err error
	if n, ok := presize(resp.ContentLength, hint); reuse && ok && n >= minReusedBody && n <= maxReusedBody {
		pooled = takeReusableBody(n)
		body, err = readSized(resp.Body, n, pooled.buf)
		if len(body) > n { // overflowed into a buffer of its own
			pooled.release()
			pooled = nil
		}
	} else {
		body, err = readBody(resp.Body, resp.ContentLength, hint)
	}
	if resp.ContentLength < 0 {
		noteBodySize(req, len(body))
	}
	return body, pooled, err
}
