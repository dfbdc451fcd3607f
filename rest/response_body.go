package rest

import (
	"bytes"
	"io"
	"sync"
)

// Reading a response body whole, as io.ReadAll would, with less copying
// and zeroing: a large LIST is tens of megabytes, and an informer reads
// one page after another.
//
//   - When the response declares its length (Content-Length), the body is
//     read straight into one buffer of that size; when it does not and a
//     body of the same request was large before, into one buffer of about
//     that size (see response_body_hint.go).
//   - Otherwise (chunked transfer, or a body the transport decompressed)
//     it is read into fixed-size chunks taken from a pool and reused from
//     one response to the next (up to a few megabytes of them), then
//     copied once into a slice of its exact size.
//
// Either way the result is a slice of its own, never shared with another
// response, holding exactly the bytes read; a read error returns what was
// read before it, as io.ReadAll does.

const (
	// bodyChunkSize is the size of the pooled chunks bodies of unknown
	// length are read into.
	bodyChunkSize = 32 << 10
	// maxPooledChunks bounds the chunks one read returns to the pool:
	// chunks in the pool count as live heap until the collector drops
	// them, so a body of tens of megabytes must not leave that much
	// behind. Enough for a page of a paginated list.
	maxPooledChunks = 128
	// maxPresizedBody bounds the buffer allocated up front from a
	// declared length, so that a wrong Content-Length cannot make the
	// client allocate more than this before any byte arrives. Longer
	// bodies are read in chunks.
	maxPresizedBody = 64 << 20
)

// bodyChunk is one pooled read buffer.
type bodyChunk [bodyChunkSize]byte

var bodyChunks = sync.Pool{New: func() any { return new(bodyChunk) }}

// readBody reads r to its end. length is the length the response declares,
// negative when unknown; hint, when positive, is the size to expect when
// it is unknown (see response_body_hint.go).
func readBody(r io.Reader, length int64, hint int) ([]byte, error) {
	if n, ok := presize(length, hint); ok {
		return readSized(r, n, make([]byte, n+1))
	}
	return readChunked(r, nil)
}

// presize returns the size of the buffer to read a body into up front: its
// declared length when it has one, else the hint. ok is false when the
// body is to be read in chunks.
func presize(length int64, hint int) (n int, ok bool) {
	switch {
	case length >= 0 && length < maxPresizedBody:
		return int(length), true
	case length < 0 && hint > 0 && hint < maxPresizedBody:
		return hint, true
	}
	return 0, false
}

// readSized reads a body expected to be n bytes long into buf, which has
// room for one byte more, so that the read finding the end has somewhere
// to go. A body longer than that goes on in chunks, copied out of buf: so
// the result is in buf exactly when it is at most n bytes long.
func readSized(r io.Reader, n int, buf []byte) ([]byte, error) {
	buf = buf[:n+1]
	read := 0
	for {
		m, err := r.Read(buf[read:])
		read += m
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return buf[:read:read], err
		}
		if read == len(buf) {
			return readChunked(r, buf)
		}
	}
}

// readChunked reads r to its end after the bytes of head, into pooled
// chunks, and returns head and the rest in one slice of its exact size.
func readChunked(r io.Reader, head []byte) ([]byte, error) {
	var chunks []*bodyChunk
	defer func() {
		for _, c := range chunks[:min(len(chunks), maxPooledChunks)] {
			bodyChunks.Put(c)
		}
	}()
	c := bodyChunks.Get().(*bodyChunk)
	chunks = append(chunks, c)
	used := 0 // bytes of the last chunk
	var err error
	for {
		var m int
		m, err = r.Read(c[used:])
		used += m
		if err != nil {
			break
		}
		if used == len(c) {
			c = bodyChunks.Get().(*bodyChunk)
			chunks = append(chunks, c)
			used = 0
		}
	}
	if err == io.EOF {
		err = nil
	}
	parts := make([][]byte, 0, len(chunks)+1)
	if len(head) > 0 {
		parts = append(parts, head)
	}
	for i, c := range chunks {
		if i == len(chunks)-1 {
			parts = append(parts, c[:used])
		} else {
			parts = append(parts, c[:])
		}
	}
	return joinBody(parts), err
}

// joinBody copies parts into one slice of their total length. Like
// io.ReadAll's result it is never nil, even for an empty body. bytes.Join
// allocates its result without zeroing it first.
func joinBody(parts [][]byte) []byte {
	switch {
	case len(parts) == 1 && len(parts[0]) > 0:
		return bytes.Clone(parts[0])
	case len(parts) <= 1:
		return []byte{}
	}
	return bytes.Join(parts, nil)
}
