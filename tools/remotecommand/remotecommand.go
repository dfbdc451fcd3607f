package remotecommand

import (
	"context"
	"io"
	"net/http"

	"k8s.io/apimachinery/pkg/util/httpstream"
)

// StreamOptions holds the streams of one session, whether a TTY is wanted,
// and the queue of terminal resizes to forward.
type StreamOptions struct {
	Stdin             io.Reader
	Stdout            io.Writer
	Stderr            io.Writer
	Tty               bool
	TerminalSizeQueue TerminalSizeQueue
}

// Executor carries shell-style streams to a remote process.
type Executor interface {
	// Deprecated: use StreamWithContext instead to avoid possible resource leaks.
	// See https://github.com/kubernetes/kubernetes/pull/103177 for details.
	Stream(options StreamOptions) error

	// StreamWithContext transports every non-nil stream in options to the
	// remote process and returns when the session ends or ctx is done. With a
	// TTY, stderr is unused: the terminal merges it into stdout.
	StreamWithContext(ctx context.Context, options StreamOptions) error
}

// streamCreator opens one logical stream on an upgraded connection; both the
// SPDY connection and the websocket channel multiplexer provide it.
type streamCreator interface {
	CreateStream(headers http.Header) (httpstream.Stream, error)
}

// streamProtocolHandler runs one session of a negotiated protocol version.
type streamProtocolHandler interface {
	stream(conn streamCreator) error
}
