package responsebody

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/wirecodec"
)

// Reusing the buffer of a body decoded once. An informer's initial list
// is a run of pages of a few megabytes each, and each page's body is
// garbage as soon as it is decoded: reading every page into a new buffer
// costs a fresh allocation (zeroed, and page-faulted in by the kernel's
// copy) and collector work for memory nobody keeps. When the caller says
// the body is decoded once (Read's decodeOnce), a large body is read into
// a Buffer from a pool instead, and the caller returns it once it has
// decoded the body with a decoder that keeps none of it (Decoded). Any
// other body is never pooled.

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

// Buffer is the pooled buffer a body to be decoded once was read into.
// buf keeps its whole capacity; the body read into it is a prefix. The
// holder of a Buffer returns it with Decoded or Release, once, and uses
// the body no more afterwards.
type Buffer struct{ buf []byte }

// reusableBodies holds the buffers not in use. Like any sync.Pool it drops
// them over two garbage collections, so buffers of a list read once do not
// stay.
var reusableBodies sync.Pool

// takeBuffer returns a buffer with room for n+1 bytes, the most readSized
// reads for a body of n bytes. A pooled buffer too small for that is
// dropped, and the new one has an eighth to spare, so that pages that
// grow a little do not each need a new one.
func takeBuffer(n int) *Buffer {
	if b, ok := reusableBodies.Get().(*Buffer); ok && cap(b.buf) > n {
		return b
	}
	return &Buffer{buf: make([]byte, n+1+n/8)}
}

// Release returns b to the pool; nothing may use the body read into it
// afterwards. A nil b is a no-op.
func (b *Buffer) Release() {
	if b != nil {
		reusableBodies.Put(b)
	}
}

// Decoded is called once the body in b has been decoded with d into
// into: it returns b to the pool when that decode kept no part of the
// body (wirecodec.KeepsNoInput), and reports whether it did. Otherwise
// the decoded object holds the body, and b stays with it. A nil b is a
// no-op.
func (b *Buffer) Decoded(d runtime.Decoder, into runtime.Object) bool {
	if b == nil || !wirecodec.KeepsNoInput(d, into) {
		return false
	}
	b.Release()
	return true
}
