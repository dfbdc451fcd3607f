// Package metricsdiscard holds the no-op latency metric that
// tools/metrics installs by default, so that the REST client (layer 3)
// can tell a latency nobody records and skip building its labels: a
// request's URL template costs a URL of its own, on every request.
package metricsdiscard

import (
	"context"
	"net/url"
	"time"
)

// Latency is the default RequestLatency and RateLimiterLatency of
// tools/metrics: it records nothing.
type Latency struct{}

// Observe does nothing.
func (Latency) Observe(context.Context, string, url.URL, time.Duration) {}
