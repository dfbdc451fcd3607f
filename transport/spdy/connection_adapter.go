package spdy

import (
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/httpstream"
	streamhttp "k8s.io/streaming/pkg/httpstream"
)

// The two httpstream packages (apimachinery's and k8s.io/streaming's) declare
// structurally identical interfaces. Streams convert directly; connections
// need a thin wrapper because their methods name the package's Stream type.

// toStreamingConnection presents an apimachinery connection as a streaming one.
type toStreamingConnection struct{ httpstream.Connection }

func (c toStreamingConnection) CreateStream(h http.Header) (streamhttp.Stream, error) {
	s, err := c.Connection.CreateStream(h)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (c toStreamingConnection) RemoveStreams(streams ...streamhttp.Stream) {
	converted := make([]httpstream.Stream, len(streams))
	for i, s := range streams {
		converted[i] = s
	}
	c.Connection.RemoveStreams(converted...)
}

// fromStreamingConnection presents a streaming connection as an apimachinery one.
type fromStreamingConnection struct{ streamhttp.Connection }

func (c fromStreamingConnection) CreateStream(h http.Header) (httpstream.Stream, error) {
	s, err := c.Connection.CreateStream(h)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (c fromStreamingConnection) RemoveStreams(streams ...httpstream.Stream) {
	converted := make([]streamhttp.Stream, len(streams))
	for i, s := range streams {
		converted[i] = s
	}
	c.Connection.RemoveStreams(converted...)
}

func (c fromStreamingConnection) SetIdleTimeout(d time.Duration) { c.Connection.SetIdleTimeout(d) }

func asStreaming(c httpstream.Connection) streamhttp.Connection {
	if c == nil {
		return nil
	}
	if f, ok := c.(fromStreamingConnection); ok {
		return f.Connection
	}
	return toStreamingConnection{c}
}

func fromStreaming(c streamhttp.Connection) httpstream.Connection {
	if c == nil {
		return nil
	}
	if t, ok := c.(toStreamingConnection); ok {
		return t.Connection
	}
	return fromStreamingConnection{c}
}
