package remotecommand

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	gwebsocket "github.com/gorilla/websocket"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"
)

// channelIDs maps stream types to the channel byte that prefixes each of the
// stream's websocket messages.
var channelIDs = map[string]byte{
	v1.StreamTypeStdin:  remotecommandconsts.StreamStdIn,
	v1.StreamTypeStdout: remotecommandconsts.StreamStdOut,
	v1.StreamTypeStderr: remotecommandconsts.StreamStdErr,
	v1.StreamTypeError:  remotecommandconsts.StreamErr,
	v1.StreamTypeResize: remotecommandconsts.StreamResize,
}

const (
	// wsWriteDeadline bounds one websocket write.
	wsWriteDeadline = 60 * time.Second
	// wsPingPeriod is how often the client pings the server.
	wsPingPeriod = 5 * time.Second
	// wsMaxPayload is the most stream data sent in one message; with the
	// channel byte it fits the websocket transport's write buffer, so
	// every message goes out as a single frame.
	wsMaxPayload = 32 * 1024
)

// wsChannels multiplexes channel.k8s.io streams over one websocket
// connection. Writes are serialized by writeMu (gorilla allows one writer);
// readLoop is the only reader and routes each message to its channel's pipe.
type wsChannels struct {
	conn       *gwebsocket.Conn
	closeStdin bool // v5: announce the end of stdin with a CLOSE message

	writeMu sync.Mutex

	mu      sync.Mutex // guards streams
	streams map[byte]*wsStream
}

func newWSChannels(conn *gwebsocket.Conn, protocol string) *wsChannels {
	return &wsChannels{
		conn:       conn,
		closeStdin: protocol == remotecommandconsts.StreamProtocolV5Name,
		streams:    map[byte]*wsStream{},
	}
}

// CreateStream registers a channel for the stream type named in headers.
func (c *wsChannels) CreateStream(headers http.Header) (httpstream.Stream, error) {
	streamType := headers.Get(v1.StreamType)
	id, ok := channelIDs[streamType]
	if !ok {
		return nil, fmt.Errorf("unknown stream type %q", streamType)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.streams[id]; dup {
		return nil, fmt.Errorf("duplicate stream for type %q", streamType)
	}
	r, w := io.Pipe()
	s := &wsStream{channels: c, id: id, headers: headers.Clone(), reader: r, writer: w}
	c.streams[id] = s
	return s, nil
}

func (c *wsChannels) write(messageType int, data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.conn.SetWriteDeadline(time.Now().Add(wsWriteDeadline)); err != nil {
		return err
	}
	return c.conn.WriteMessage(messageType, data)
}

// readLoop delivers incoming messages until the connection fails or the
// server closes it, then ends every stream's reader with the reason.
func (c *wsChannels) readLoop() {
	var final error
	for {
		messageType, data, err := c.conn.ReadMessage()
		if err != nil {
			if gwebsocket.IsCloseError(err, gwebsocket.CloseNormalClosure) {
				final = io.EOF
			} else {
				final = err
			}
			break
		}
		if messageType != gwebsocket.BinaryMessage || len(data) == 0 {
			continue
		}
		c.mu.Lock()
		s := c.streams[data[0]]
		c.mu.Unlock()
		if s == nil {
			continue
		}
		// A stream nobody reads (closed pipe) just drops its data.
		s.writer.Write(data[1:]) //nolint:errcheck
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.streams {
		if final == io.EOF {
			s.writer.Close() //nolint:errcheck
		} else {
			s.writer.CloseWithError(final) //nolint:errcheck
		}
	}
}

// ping keeps the connection alive until done is closed.
func (c *wsChannels) ping(done <-chan struct{}) {
	t := time.NewTicker(wsPingPeriod)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			c.writeMu.Lock()
			err := c.conn.WriteControl(gwebsocket.PingMessage, nil, time.Now().Add(wsWriteDeadline))
			c.writeMu.Unlock()
			if err != nil {
				return
			}
		}
	}
}

// wsStream is one channel of a wsChannels connection.
type wsStream struct {
	channels *wsChannels
	id       byte
	headers  http.Header
	reader   *io.PipeReader
	writer   *io.PipeWriter

	closeOnce sync.Once
}

var _ httpstream.Stream = &wsStream{}

func (s *wsStream) Read(p []byte) (int, error) { return s.reader.Read(p) }

// Write sends p as messages prefixed with the channel byte, each carrying
// at most wsMaxPayload bytes. Larger messages would be split into
// continuation frames, which servers built on golang.org/x/net/websocket
// (such as the API server's stream translator) do not reassemble.
func (s *wsStream) Write(p []byte) (int, error) {
	written := 0
	for {
		chunk := p[written:]
		if len(chunk) > wsMaxPayload {
			chunk = chunk[:wsMaxPayload]
		}
		msg := make([]byte, len(chunk)+1)
		msg[0] = s.id
		copy(msg[1:], chunk)
		if err := s.channels.write(gwebsocket.BinaryMessage, msg); err != nil {
			return written, err
		}
		written += len(chunk)
		if written >= len(p) {
			return written, nil
		}
	}
}

// Close ends the client's side of the stream: for stdin under v5 the server
// is told with a CLOSE message on channel 255.
func (s *wsStream) Close() error {
	var err error
	s.closeOnce.Do(func() {
		if s.id == remotecommandconsts.StreamStdIn && s.channels.closeStdin {
			err = s.channels.write(gwebsocket.BinaryMessage, []byte{remotecommandconsts.StreamClose, s.id})
		}
	})
	return err
}

// Reset abandons the stream's incoming data.
func (s *wsStream) Reset() error {
	return s.reader.CloseWithError(errors.New("stream reset"))
}

func (s *wsStream) Headers() http.Header { return s.headers }
func (s *wsStream) Identifier() uint32   { return uint32(s.id) }
