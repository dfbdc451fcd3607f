package responsebody

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"

	"github.com/kubeclient/client-go/internal/jsondecode/lex"
	"github.com/kubeclient/client-go/internal/jsonscan"
	"github.com/kubeclient/client-go/internal/wirecodec"
)

// A JSON watch stream is a sequence of JSON objects. The reference reads
// it with a chain of three readers: cutDetectingBody (cut.go) to notice a
// cut inside an event, json.Framer to cut it into frames with an
// encoding/json.Decoder, and streaming.NewDecoder to copy each frame into
// a buffer and decode it. jsonEventStream does the framing and the cut
// detection in one read of the bytes: it follows the braces and strings of
// the current object until it closes, and hands the frame, in place, to
// the stream serializer. A serializer with a DecodeFrame method
// (wirecodec's) is handed the frame with the index the framing built,
// so that the frame is validated and indexed once for the stream and the
// decoding; any other serializer gets a frame validated by the framing.
// Frames, errors and the cut-mid-event error are those of the reference
// chain. On anything but a stream of well-formed objects (a top-level
// value that is not an object, a syntax error) the rest of the stream,
// starting at that value, goes through the reference chain itself, which
// reports it.

// maxFrameSize is the largest frame streaming.NewDecoder decodes; a larger
// one fails with streaming.ErrObjectTooLarge and is skipped.
const maxFrameSize = 16 * 1024 * 1024

// minFrameRead is the least free space offered to a body read.
const minFrameRead = 32 * 1024

// minCheckedPrefix is the size from which a partial frame's syntax is
// checked before the frame closes.
const minCheckedPrefix = 256 * 1024

// jsonEventStream is a streaming.Decoder for a JSON watch response body.
// It is used by one goroutine, the watch's receive loop.
type jsonEventStream struct {
	body    io.ReadCloser
	decoder runtime.Decoder

	// buf[start:] holds the bytes received and not yet handed out.
	buf   []byte
	start int
	// frame follows the object being received; its offsets index buf.
	frame objectEnd

	// reference decodes the rest of the stream once the fast path gave up.
	reference streaming.Decoder
}

var _ streaming.Decoder = &jsonEventStream{}

// isJSONFraming reports whether a watch stream of mediaType framed by framer
// can be read by a jsonEventStream instead.
func isJSONFraming(mediaType string, framer runtime.Framer) bool {
	_, isJSON := frameScannerFor(mediaType).(*jsonscan.Scanner)
	return isJSON && framer == json.Framer
}

func newJSONEventStream(body io.ReadCloser, decoder runtime.Decoder) *jsonEventStream {
	return &jsonEventStream{body: body, decoder: decoder, frame: objectEnd{start: -1}}
}

// frameDecoder decodes a watch frame and checks its syntax in one pass,
// failing with wirecodec.ErrMalformedFrame, having decoded nothing, for a
// malformed frame.
type frameDecoder interface {
	DecodeFrame(l *lex.Lexer, frame []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error)
}

// Decode decodes the next frame into into as the stream serializer does.
func (s *jsonEventStream) Decode(defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	for s.reference == nil {
		frame, indexed, err := s.next()
		if err != nil {
			return nil, nil, err
		}
		if frame == nil {
			continue // handed to the reference
		}
		if fd, ok := s.decoder.(frameDecoder); ok && len(frame) <= maxFrameSize {
			obj, gvk, err := fd.DecodeFrame(indexed, frame, defaults, into)
			if err == wirecodec.ErrMalformedFrame {
				s.useReference(nil)
				continue
			}
			s.consume()
			return obj, gvk, err
		}
		if indexed != nil {
			indexed.Release()
		} else if !s.frame.valid && lex.Validate(frame) != nil {
			s.useReference(nil)
			continue
		}
		s.consume()
		if len(frame) > maxFrameSize {
			return nil, nil, streaming.ErrObjectTooLarge
		}
		return s.decoder.Decode(frame, defaults, into)
	}
	return s.reference.Decode(defaults, into)
}

// Close closes the body.
func (s *jsonEventStream) Close() error {
	if s.reference != nil {
		return s.reference.Close()
	}
	return s.body.Close()
}

// next returns the next complete frame, its braces balanced, reading the
// body as needed. A frame that arrived whole in one read is validated as
// it is found (frame.valid), and indexed for a frameDecoder (indexed, to
// Release); the syntax of one that did not is not checked yet. The frame
// stays the stream's first until consume; useReference hands the stream
// on from it. It returns a nil frame when it handed the stream to the
// reference.
func (s *jsonEventStream) next() (frame []byte, indexed *lex.Lexer, err error) {
	for {
		if s.frame.start < 0 {
			i := jsonscan.SkipSpace(s.buf, s.start)
			s.start = i
			if i < len(s.buf) {
				if s.buf[i] != '{' {
					s.useReference(nil)
					return nil, nil, nil
				}
				// Most frames are whole in the buffer: finding their end
				// by validating them gives the index a frameDecoder uses.
				var l *lex.Lexer
				var end int
				var st lex.Status
				if _, ok := s.decoder.(frameDecoder); ok {
					l, end, st = lex.IndexPrefix(s.buf[i:])
				} else {
					end, st = lex.ValidatePrefix(s.buf[i:])
				}
				switch st {
				case lex.Complete:
					s.frame = objectEnd{start: i, pos: i + end, valid: true}
					return s.buf[i : i+end], l, nil
				case lex.Invalid:
					s.useReference(nil)
					return nil, nil, nil
				}
				s.frame = objectEnd{start: i, pos: i}
			}
		}
		if s.frame.start >= 0 && s.frame.find(s.buf) {
			return s.buf[s.frame.start:s.frame.pos], nil, nil
		}
		if s.frame.start >= 0 && s.malformedSoFar() {
			s.useReference(nil)
			return nil, nil, nil
		}
		if err := s.read(); err != nil {
			return nil, nil, s.readFailed(err)
		}
	}
}

// consume drops the frame next returned.
func (s *jsonEventStream) consume() {
	s.start, s.frame = s.frame.pos, objectEnd{start: -1}
}

// malformedSoFar checks the syntax of the partial frame each time it has
// doubled in size (from minCheckedPrefix on), so that a malformed frame
// whose braces never balance is found with a bounded buffer and in linear
// time. Smaller partial frames are checked when they close or when the body
// fails.
func (s *jsonEventStream) malformedSoFar() bool {
	partial := len(s.buf) - s.frame.start
	if partial < max(minCheckedPrefix, 2*s.frame.checked) {
		return false
	}
	s.frame.checked = partial
	return lex.Malformed(s.buf[s.frame.start:])
}

// read appends the next bytes of the body to buf, first moving the bytes
// not handed out to its front.
func (s *jsonEventStream) read() error {
	if s.start > 0 {
		n := copy(s.buf, s.buf[s.start:])
		s.buf = s.buf[:n]
		s.frame.shift(s.start)
		s.start = 0
	}
	if cap(s.buf)-len(s.buf) < minFrameRead {
		grown := make([]byte, len(s.buf), max(2*cap(s.buf), len(s.buf)+minFrameRead))
		copy(grown, s.buf)
		s.buf = grown
	}
	n, err := s.body.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if n > 0 {
		// The bytes come first: a frame they complete is handed out, and
		// the error, if it persists, is met on the next read, as with the
		// reference's encoding/json.Decoder.
		return nil
	}
	return err
}

// readFailed turns a body error met with no complete frame buffered into
// the reference's error: the error itself between frames (io.EOF for a
// clean end), a *streamCutError inside a frame unless the caller ended the
// watch. A malformed partial frame is the reference's to report.
func (s *jsonEventStream) readFailed(err error) error {
	if s.frame.start < 0 {
		return err
	}
	partial := s.buf[s.frame.start:]
	if lex.Malformed(partial) {
		s.useReference(err)
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, http.ErrBodyReadAfterClose) {
		return err
	}
	return &streamCutError{received: len(partial), cause: err}
}

// useReference hands the rest of the stream, from the first byte not
// handed out, to the reference chain; readErr, when set, is the error the
// body returned after those bytes.
func (s *jsonEventStream) useReference(readErr error) {
	rest := &replayBody{pending: bytes.Clone(s.buf[s.start:]), err: readErr, body: s.body}
	s.buf, s.start = nil, 0
	frames := json.Framer.NewFrameReader(&cutDetectingBody{body: rest, frames: &jsonscan.Scanner{}})
	s.reference = streaming.NewDecoder(frames, s.decoder)
}

// replayBody returns pending, then err if set, then reads body.
type replayBody struct {
	pending []byte
	err     error
	body    io.ReadCloser
}

func (r *replayBody) Read(p []byte) (int, error) {
	if len(r.pending) > 0 {
		n := copy(p, r.pending)
		r.pending = r.pending[n:]
		return n, nil
	}
	if err := r.err; err != nil {
		r.err = nil
		return 0, err
	}
	return r.body.Read(p)
}

func (r *replayBody) Close() error { return r.body.Close() }

// objectEnd follows a JSON object through its braces and strings
// (jsonscan.Scanner) to find where it closes; it does not check the
// syntax.
type objectEnd struct {
	start   int // offset of the opening brace; -1 between frames
	pos     int // offset of the next byte to look at
	scan    jsonscan.Scanner
	checked int  // size of the prefix last checked by malformedSoFar
	valid   bool // the object closed is validated
}

// find looks at buf[pos:] and reports whether the object closed; pos is then
// the offset after its closing brace.
func (o *objectEnd) find(buf []byte) bool {
	n, closed := o.scan.Scan(buf[o.pos:])
	o.pos += n
	return closed
}

// shift moves the offsets of o after n bytes were dropped from the front.
func (o *objectEnd) shift(n int) {
	if o.start >= 0 {
		o.start -= n
		o.pos -= n
	}
}
