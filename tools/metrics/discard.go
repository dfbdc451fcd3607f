package metrics

import (
	"context"
	"time"
)

// The discard types are the no-op defaults of the package variables.

type discardDuration struct{}

func (discardDuration) Observe(time.Duration) {}

type discardExpiry struct{}

func (discardExpiry) Set(*time.Time) {}

type discardResolverLatency struct{}

func (discardResolverLatency) Observe(context.Context, string, time.Duration) {}

type discardSize struct{}

func (discardSize) Observe(context.Context, string, string, float64) {}

type discardResult struct{}

func (discardResult) Increment(context.Context, string, string, string) {}

type discardCalls struct{}

func (discardCalls) Increment(int, string) {}

type discardRetry struct{}

func (discardRetry) IncrementRetry(context.Context, string, string, string) {}

type discardCount struct{}

func (discardCount) Observe(int) {}

// discardLabel serves every counter with a single string label.
type discardLabel struct{}

func (discardLabel) Increment(string) {}

type discardTwoLabels struct{}

func (discardTwoLabels) Increment(string, string) {}

type discardCounter struct{}

func (discardCounter) Increment() {}
