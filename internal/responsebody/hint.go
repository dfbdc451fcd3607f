package responsebody

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
// read for a request is the hint for the next one: once it has shown to be
// large (chunks.go), the body is read into one buffer of that size,
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
