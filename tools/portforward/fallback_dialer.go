package portforward

import (
	"k8s.io/apimachinery/pkg/util/httpstream"
	streamhttp "k8s.io/streaming/pkg/httpstream"
)

// FallbackDialer dials with a primary dialer and, when its error satisfies
// shouldFallback, with a secondary one. It implements httpstream.Dialer.
type FallbackDialer struct {
	primary        httpstream.Dialer
	secondary      httpstream.Dialer
	shouldFallback func(error) bool
}

var _ httpstream.Dialer = &FallbackDialer{}

// NewFallbackDialer returns a FallbackDialer over primary and secondary.
func NewFallbackDialer(primary, secondary httpstream.Dialer, shouldFallback func(error) bool) httpstream.Dialer {
	return &FallbackDialer{primary: primary, secondary: secondary, shouldFallback: shouldFallback}
}

// Dial requests protocols from the primary dialer, retrying with the
// secondary when the primary's error calls for it.
func (f *FallbackDialer) Dial(protocols ...string) (httpstream.Connection, string, error) {
	conn, version, err := f.primary.Dial(protocols...)
	if err != nil && f.shouldFallback != nil && f.shouldFallback(err) {
		return f.secondary.Dial(protocols...)
	}
	return conn, version, err
}

// StreamingFallbackDialer is FallbackDialer for k8s.io/streaming dialers.
type StreamingFallbackDialer struct {
	primary        streamhttp.Dialer
	secondary      streamhttp.Dialer
	shouldFallback func(error) bool
}

var _ streamhttp.Dialer = &StreamingFallbackDialer{}

// NewFallbackDialerForStreaming returns a StreamingFallbackDialer.
func NewFallbackDialerForStreaming(primary, secondary streamhttp.Dialer, shouldFallback func(error) bool) streamhttp.Dialer {
	return &StreamingFallbackDialer{primary: primary, secondary: secondary, shouldFallback: shouldFallback}
}

// Dial requests protocols from the primary dialer, retrying with the
// secondary when the primary's error calls for it.
func (f *StreamingFallbackDialer) Dial(protocols ...string) (streamhttp.Connection, string, error) {
	conn, version, err := f.primary.Dial(protocols...)
	if err != nil && f.shouldFallback != nil && f.shouldFallback(err) {
		return f.secondary.Dial(protocols...)
	}
	return conn, version, err
}
