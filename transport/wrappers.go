package transport

import (
	"context"
	"fmt"
	"net/http"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"
)

// WrapperFunc decorates an http.RoundTripper. Wrappers are applied when a
// client's transport is built, so they can add per-client behaviour.
type WrapperFunc func(rt http.RoundTripper) http.RoundTripper

// Wrappers combines fns into one WrapperFunc that applies them in order, each
// wrapping the result of the previous one. Nil entries are skipped, which lets
// callers grow a chain starting from a nil wrapper. With no arguments it
// returns nil.
func Wrappers(fns ...WrapperFunc) WrapperFunc {
	switch {
	case len(fns) == 0:
		return nil
	case len(fns) == 2 && fns[0] == nil:
		// Extending an empty chain by one wrapper is the common case.
		return fns[1]
	}
	return func(rt http.RoundTripper) http.RoundTripper {
		for _, fn := range fns {
			if fn != nil {
				rt = fn(rt)
			}
		}
		return rt
	}
}

// ContextCanceller returns a wrapper that refuses new requests with err once
// ctx is done. Requests already in flight are not affected.
func ContextCanceller(ctx context.Context, err error) WrapperFunc {
	return func(rt http.RoundTripper) http.RoundTripper {
		return &contextCanceller{ctx: ctx, rt: rt, err: err}
	}
}

// contextCanceller forwards requests to rt until ctx is done.
type contextCanceller struct {
	ctx context.Context
	rt  http.RoundTripper
	err error
}

var _ utilnet.RoundTripperWrapper = &contextCanceller{}

func (c *contextCanceller) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.ctx.Err() != nil {
		return nil, c.err
	}
	return c.rt.RoundTrip(req)
}

func (c *contextCanceller) WrappedRoundTripper() http.RoundTripper { return c.rt }

// requestCanceler is the legacy cancellation hook of http.Transport.
type requestCanceler interface {
	CancelRequest(*http.Request)
}

// cancelThrough passes a legacy CancelRequest call down the chain starting at
// rt, until a round tripper that can cancel is found.
func cancelThrough(rt http.RoundTripper, req *http.Request) {
	for rt != nil {
		switch t := rt.(type) {
		case requestCanceler:
			t.CancelRequest(req)
			return
		case utilnet.RoundTripperWrapper:
			rt = t.WrappedRoundTripper()
		default:
			klog.FromContext(req.Context()).Info("Warning: unable to cancel request", "roundTripperType", fmt.Sprintf("%T", rt))
			return
		}
	}
}
