package responsebody

import (
	"errors"
	"io"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
)

// Events is the stream of events of a watch response body: the
// streaming.Decoder a watch decodes its events from, which also keeps the
// error that cut the stream inside an event, if one did (see cut.go).
//
// Decode is called by one goroutine, the watch's receive loop; CutError
// may be called from any goroutine.
type Events struct {
	frames streaming.Decoder
	cut    atomic.Pointer[streamCutError]
}

var _ streaming.Decoder = &Events{}

// NewEvents returns the events of body, a watch response body of
// mediaType, framed by framer and decoded into events by serializer, as
// the stream serializer the REST client negotiated for the response
// (runtime.ClientNegotiator.StreamDecoder) describes them. Its events and
// errors are those of streaming.NewDecoder(framer.NewFrameReader(body),
// serializer); it reads a JSON stream in one pass that frames, validates
// and, with a serializer of internal/wirecodec, indexes each event once
// (json_events.go), and notices a JSON or protobuf stream cut inside an
// event (cut.go). Events owns body: Close closes it.
func NewEvents(body io.ReadCloser, mediaType string, framer runtime.Framer, serializer runtime.Decoder) *Events {
	if isJSONFraming(mediaType, framer) {
		return &Events{frames: newJSONEventStream(body, serializer)}
	}
	if scanner := frameScannerFor(mediaType); scanner != nil {
		body = &cutDetectingBody{body: body, frames: scanner}
	}
	return &Events{frames: streaming.NewDecoder(framer.NewFrameReader(body), serializer)}
}

// Decode implements streaming.Decoder. A *streamCutError from the frames
// is kept for CutError, and Decode returns the error client-go's stream
// decoders return for that cut instead.
func (e *Events) Decode(defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, gvk, err := e.frames.Decode(defaults, into)
	var cut *streamCutError
	if errors.As(err, &cut) {
		e.cut.Store(cut)
		return obj, gvk, cut.referenceError()
	}
	return obj, gvk, err
}

// Close implements streaming.Decoder: it closes the body.
func (e *Events) Close() error { return e.frames.Close() }

// CutError returns the error that cut the stream inside an event, losing
// that event, once Decode has met it; nil otherwise.
func (e *Events) CutError() error {
	if cut := e.cut.Load(); cut != nil {
		return cut
	}
	return nil
}
