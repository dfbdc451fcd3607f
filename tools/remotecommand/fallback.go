package remotecommand

import (
	"context"
	"errors"
)

// FallbackExecutor tries a primary Executor and, when its error satisfies
// shouldFallback (typically a refused WebSocket upgrade), the secondary.
type FallbackExecutor struct {
	primary        Executor
	secondary      Executor
	shouldFallback func(error) bool
}

var _ Executor = &FallbackExecutor{}

// NewFallbackExecutor returns an Executor that runs primary (usually the
// WebSocket executor) and retries with secondary (usually SPDY) when
// shouldFallback reports true for primary's error.
func NewFallbackExecutor(primary, secondary Executor, shouldFallback func(error) bool) (Executor, error) {
	if primary == nil || secondary == nil {
		return nil, errors.New("remotecommand: fallback executor needs a primary and a secondary executor")
	}
	if shouldFallback == nil {
		return nil, errors.New("remotecommand: fallback executor needs a shouldFallback function")
	}
	return &FallbackExecutor{primary: primary, secondary: secondary, shouldFallback: shouldFallback}, nil
}

// Stream runs a session without a context.
//
// Deprecated: use StreamWithContext.
func (f *FallbackExecutor) Stream(options StreamOptions) error {
	return f.StreamWithContext(context.Background(), options)
}

// StreamWithContext runs the primary executor and falls back to the
// secondary when the primary's error calls for it.
func (f *FallbackExecutor) StreamWithContext(ctx context.Context, options StreamOptions) error {
	err := f.primary.StreamWithContext(ctx, options)
	if err != nil && f.shouldFallback(err) {
		return f.secondary.StreamWithContext(ctx, options)
	}
	return err
}
