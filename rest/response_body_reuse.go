package rest

import "sync"

// Reusing the buffer of a body decoded once. An informer's initial list
// is a run of pages of a few megabytes each, and each page's body is
// garbage as soon as it is decoded: reading every page into a new buffer
// costs a fresh allocation (zeroed, and page-faulted in by the kernel's
// copy) and collector work for memory nobody keeps. When the caller has
// marked its request with decodeonce.Mark (the generated clients' List),
// a large body is read into a buffer from a pool instead, and Result.Into
// returns the buffer once it has decoded the body with a decoder that keeps
// none of it (wirecodec.KeepsNoInput). Any other result, or a body read
// otherwise, is never pooled: Result.Raw hands the body out.

const (
	// minReusedBody is the smallest body read into a reused buffer: below
	// it, an allocation costs little.
	minReusedBody = 256 << 10
	// maxReusedBody is the largest: a page of an informer's list (500
	// objects) is a few megabytes. A whole unpaginated list of thousands
	// of objects is read rarely, and a pooled buffer of its size would
	// stay in the heap until two collections drop it, raising the peak
	// of every list after it by that much.
	maxReusedBody = 8 << 20
)

// reusableBody is a pooled buffer. buf keeps its whole capacity; the body
// read into it is a prefix.
type reusableBody struct{ buf []byte }

// reusableBodies holds the buffers not in use. Like any sync.Pool it drops
// them over two garbage collections, so buffers of a list read once do not
// stay.
var reusableBodies sync.Pool

// takeReusableBody returns a buffer with room for n+1 bytes, the most
// readSized reads for a body of n bytes. A pooled buffer too small for
// that is dropped, and the new one has an eighth to spare, so that pages
// that grow a little do not each need a new one.
func takeReusableBody(n int) *reusableBody {
	if b, ok := reusableBodies.Get().(*reusableBody); ok && cap(b.buf) > n {
		return b
	}
	return &reusableBody{buf: make([]byte, n+1+n/8)}
}

// release returns b to the pool; nothing may use the body read into it
// afterwards. A nil b is a no-op.
func (b *reusableBody) release() {
	if b != nil {
		reusableBodies.Put(b)
	}
}
