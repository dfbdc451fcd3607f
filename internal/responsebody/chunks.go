package responsebody

import (
	"bytes"
	"io"
	"math"
	"sync"
)

// Reading a response body whole, as io.ReadAll would, with less copying
// and zeroing: a large LIST is tens of megabytes, and an informer reads
// one page after another.
//
// A body may come with an expected size: the length the response declares
// (Content-Length), or else a hint, the size of the last large body of the
// same request (see hint.go). Neither is trusted with memory
// before the bytes arrive: a server may declare a length it never sends,
// and a request that brought a large body last time may bring a small one
// now.
//
//   - A body expected to be at most maxPresizedBody long is read straight
//     into one buffer of that size.
//   - Any other body is read into fixed-size chunks taken from a pool and
//     reused from one response to the next (up to a few megabytes of
//     them). Once the bytes received reach 1/trustFactor of the expected
//     size, and not before, they move into one buffer of that size and
//     the rest is read into it. A body that ends first, or has no
//     expected size, or outgrows the buffer, is copied once into a slice
//     of its exact size.
//
// So what a body allocates is at most maxPresizedBody or trustFactor times
// the bytes that arrived, whatever it was expected to be.
//
// Either way the result is a slice of its own, never shared with another
// response, holding exactly the bytes read; a read error returns what was
// read before it, as io.ReadAll does.

const (
	// bodyChunkSize is the size of the pooled chunks bodies are read into
	// until they are trusted with a buffer of their expected size.
	bodyChunkSize = 32 << 10
	// maxPooledChunks bounds the chunks one read returns to the pool:
	// chunks in the pool count as live heap until the collector drops
	// them, so a body of tens of megabytes must not leave that much
	// behind. Enough for a page of a paginated list, or for the part of
	// a 32 MiB body read before it is trusted.
	maxPooledChunks = 128
	// maxPresizedBody is the most allocated for a body before any of its
	// bytes arrive.
	maxPresizedBody = 1 << 20
	// trustFactor is how many times the bytes received a body's buffer
	// may be, once past maxPresizedBody.
	trustFactor = 8
)

// bodyChunk is one pooled read buffer.
type bodyChunk [bodyChunkSize]byte

var bodyChunks = sync.Pool{New: func() any { return new(bodyChunk) }}

// expectedSize returns the size a body is expected to have: its declared
// length when it has one, else the hint; -1 for none.
func expectedSize(length int64, hint int) int {
	switch {
	case length >= 0 && length <= math.MaxInt:
		return int(length)
	case length < 0 && hint > 0:
		return hint
	}
	return -1
}

// readExpected reads r to its end, expecting expect bytes (-1: no
// expectation). alloc returns the buffer for a body of n bytes, with room
// for at least n+1; it is called at most once. inBuf reports whether the
// body is in that buffer: a body longer than expect never is.
func readExpected(r io.Reader, expect int, alloc func(n int) []byte) (body []byte, inBuf bool, err error) {
	if expect >= 0 && expect <= maxPresizedBody {
		return readSized(r, expect, alloc(expect), 0)
	}
	var chunks pooledChunks
	defer chunks.release()
	trusted, err := chunks.readFrom(r, func(read int) bool {
		return read < expect && expect/trustFactor <= read
	})
	if !trusted {
		return chunks.join(nil), false, err
	}
	buf := alloc(expect)
	read := chunks.copyTo(buf)
	return readSized(r, expect, buf, read)
}

// readSized reads a body expected to be n bytes long into buf, which holds
// its first read bytes and has room for at least one byte more than n, so
// that the read finding the end has somewhere to go. A body longer than
// that goes on in chunks, copied out of buf: so the result is in buf
// exactly when it is at most n bytes long.
func readSized(r io.Reader, n int, buf []byte, read int) ([]byte, bool, error) {
	buf = buf[:n+1]
	for {
		m, err := r.Read(buf[read:])
		read += m
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return buf[:read:read], true, err
		}
		if read == len(buf) {
			var chunks pooledChunks
			defer chunks.release()
			_, err := chunks.readFrom(r, nil)
			return chunks.join(buf), false, err
		}
	}
}

// pooledChunks is a body, or the part of one after some head, read into
// pooled chunks. release returns them to the pool.
type pooledChunks struct {
	chunks []*bodyChunk
	used   int // bytes of the last chunk
}

// readFrom reads r into chunks to its end, or until stop, asked each time
// a chunk fills with the bytes read so far, says to stop. It reports
// whether stop did, and the read error other than io.EOF.
func (b *pooledChunks) readFrom(r io.Reader, stop func(read int) bool) (stopped bool, err error) {
	for {
		if len(b.chunks) == 0 || b.used == bodyChunkSize {
			if len(b.chunks) > 0 && stop != nil && stop(len(b.chunks)*bodyChunkSize) {
				return true, nil
			}
			b.chunks = append(b.chunks, bodyChunks.Get().(*bodyChunk))
			b.used = 0
		}
		m, err := r.Read(b.chunks[len(b.chunks)-1][b.used:])
		b.used += m
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// parts returns the bytes read, chunk by chunk.
func (b *pooledChunks) parts(head []byte) [][]byte {
	parts := make([][]byte, 0, len(b.chunks)+1)
	parts = append(parts, head)
	for i, c := range b.chunks {
		if i == len(b.chunks)-1 {
			parts = append(parts, c[:b.used])
		} else {
			parts = append(parts, c[:])
		}
	}
	return parts
}

// join returns head and the bytes read in one slice of their exact size.
func (b *pooledChunks) join(head []byte) []byte {
	return joinBody(b.parts(head))
}

// copyTo copies the bytes read to the start of buf and returns how many
// there are.
func (b *pooledChunks) copyTo(buf []byte) int {
	n := 0
	for _, p := range b.parts(nil) {
		n += copy(buf[n:], p)
	}
	return n
}

// release returns the chunks to the pool, at most maxPooledChunks of
// them; b reads nothing afterwards.
func (b *pooledChunks) release() {
	for _, c := range b.chunks[:min(len(b.chunks), maxPooledChunks)] {
		bodyChunks.Put(c)
	}
	b.chunks, b.used = nil, 0
}

// joinBody copies parts into one slice of their total length. Like
// io.ReadAll's result it is never nil, even for an empty body. bytes.Join
// allocates its result without zeroing it first.
func joinBody(parts [][]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return []byte{}
	}
	return bytes.Join(parts, nil)
}
