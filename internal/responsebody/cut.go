package responsebody

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kubeclient/client-go/internal/jsonscan"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// A watch stream that ends, or whose connection breaks, while an event is
// only partly received has lost that event. client-go reports such an end
// like any other: the result channel just closes (a connection error that
// does not look like a lost connection or a timeout becomes a watch.Error
// event, as any decoding error does). The watch behaves the same here;
// what differs is that the cut is noticed and kept (Events.CutError), for
// those who opt in to learning why the channel closed (rest.WatchCutError)
// and for the reflector, which logs and counts it.
//
// The response body of a protobuf watch is read through cutDetectingBody,
// which follows the frame boundaries of the stream; a JSON watch is read by
// jsonEventStream (json_events.go), which finds the frames and the cuts in
// the same pass, and falls back to cutDetectingBody for a malformed stream.
// A read that fails inside a frame fails with a *streamCutError instead.
// Events, between the stream decoder and the StreamWatcher, keeps that
// error and hands the StreamWatcher the error client-go's decoders meet
// there: io.ErrUnexpectedEOF for a stream that ended, the connection's
// error otherwise. A stream that ends between events ends as before.

// frameScanner follows the frame boundaries of one watch wire format.
type frameScanner interface {
	// Feed consumes the next bytes of the stream.
	Feed(p []byte)
	// Held is the number of bytes received of an unfinished frame; zero
	// at a frame boundary.
	Held() int
}

// frameScannerFor returns the scanner for a stream media type, or nil when
// the format's frames are not followed (the stream is then read as is).
// A JSON stream's frames are its top-level objects, followed by
// jsonscan.Scanner.
func frameScannerFor(mediaType string) frameScanner {
	switch {
	case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
		return &jsonscan.Scanner{}
	case mediaType == "application/vnd.kubernetes.protobuf":
		return &lengthPrefixScanner{}
	}
	return nil
}

// lengthPrefixScanner follows the frames of the Kubernetes protobuf stream:
// a 4-byte big-endian length, then that many bytes.
type lengthPrefixScanner struct {
	header    [4]byte
	headerLen int // header bytes received of the current frame
	remaining int // body bytes still to come once the header is complete
	received  int
}

// Feed implements frameScanner.
func (s *lengthPrefixScanner) Feed(p []byte) {
	for len(p) > 0 {
		if s.headerLen < len(s.header) {
			n := copy(s.header[s.headerLen:], p)
			s.headerLen += n
			s.received += n
			p = p[n:]
			if s.headerLen == len(s.header) {
				s.remaining = int(binary.BigEndian.Uint32(s.header[:]))
			}
		} else {
			n := min(s.remaining, len(p))
			s.remaining -= n
			s.received += n
			p = p[n:]
		}
		if s.headerLen == len(s.header) && s.remaining == 0 {
			s.headerLen, s.received = 0, 0
		}
	}
}

// Held implements frameScanner.
func (s *lengthPrefixScanner) Held() int { return s.received }

// cutDetectingBody reads a watch response body and turns a read error that
// happens inside a frame into a *streamCutError.
type cutDetectingBody struct {
	body   io.ReadCloser
	frames frameScanner
}

func (b *cutDetectingBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	b.frames.Feed(p[:n])
	if err == nil || b.frames.Held() == 0 {
		return n, err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, http.ErrBodyReadAfterClose) {
		// The caller ended the watch; the lost event is no surprise.
		return n, err
	}
	return n, &streamCutError{received: b.frames.Held(), cause: err}
}

func (b *cutDetectingBody) Close() error { return b.body.Close() }

// streamCutError reports a watch stream that ended inside an event. It does
// not unwrap to its cause: cutReporter must find it whatever its cause.
type streamCutError struct {
	received int
	cause    error
}

// referenceError is the error client-go's stream decoders return for the
// cut: a read error as it is, io.ErrUnexpectedEOF for an end of stream.
func (e *streamCutError) referenceError() error {
	if e.cause == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return e.cause
}

func (e *streamCutError) Error() string {
	var how string
	switch {
	case e.cause == io.EOF:
		how = "the server ended the stream"
	case utilnet.IsTimeout(e.cause):
		how = "reading it timed out"
	case utilnet.IsProbableEOF(e.cause):
		how = "the connection was lost"
	default:
		how = "reading it failed: " + e.cause.Error()
	}
	return fmt.Sprintf("watch stream cut in the middle of an event (%d bytes of it received, then %s); the event is lost", e.received, how)
}
