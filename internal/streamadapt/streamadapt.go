package streamadapt

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

// AsStreaming presents an apimachinery connection as a k8s.io/streaming one,
// unwrapping a connection that was converted the other way.
func AsStreaming(c httpstream.Connection) streamhttp.Connection {
	if c == nil {
		return nil
	}
	if f, ok := c.(fromStreamingConnection); ok {
		return f.Connection
	}
	return toStreamingConnection{c}
}

// FromStreaming presents a k8s.io/streaming connection as an apimachinery
// one, unwrapping a connection that was converted the other way.
func FromStreaming(c streamhttp.Connection) httpstream.Connection {
	if c == nil {
		return nil
	}
	if t, ok := c.(toStreamingConnection); ok {
		return t.Connection
	}
	return fromStreamingConnection{c}
}

// streamingDialerAdapter presents a k8s.io/streaming dialer as an
// apimachinery one.
type streamingDialerAdapter struct{ d streamhttp.Dialer }

func (a streamingDialerAdapter) Dial(protocols ...string) (httpstream.Connection, string, error) {
	c, p, err := a.d.Dial(protocols...)
	if err != nil {
		return nil, "", err
	}
	return FromStreaming(c), p, nil
}

// apimachineryDialerAdapter presents an apimachinery dialer as a
// k8s.io/streaming one.
type apimachineryDialerAdapter struct{ d httpstream.Dialer }

func (a apimachineryDialerAdapter) Dial(protocols ...string) (streamhttp.Connection, string, error) {
	c, p, err := a.d.Dial(protocols...)
	if err != nil {
		return nil, "", err
	}
	return AsStreaming(c), p, nil
}

// DialerFromStreaming presents a k8s.io/streaming dialer as an apimachinery one.
func DialerFromStreaming(d streamhttp.Dialer) httpstream.Dialer {
	if d == nil {
		return nil
	}
	if a, ok := d.(apimachineryDialerAdapter); ok {
		return a.d
	}
	return streamingDialerAdapter{d}
}

// DialerToStreaming presents an apimachinery dialer as a k8s.io/streaming one.
func DialerToStreaming(d httpstream.Dialer) streamhttp.Dialer {
	if d == nil {
		return nil
	}
	if a, ok := d.(streamingDialerAdapter); ok {
		return a.d
	}
	return apimachineryDialerAdapter{d}
}
