package metrics

import (
	"context"
	"net/url"
	"time"

	"github.com/kubeclient/client-go/internal/metricsdiscard"
)

// DurationMetric records a length of time.
type DurationMetric interface {
	Observe(duration time.Duration)
}

// ExpiryMetric records a point in time at which something expires. A nil
// expiry means there is nothing to expire.
type ExpiryMetric interface {
	Set(expiry *time.Time)
}

// LatencyMetric records the latency of a client operation by verb and URL.
type LatencyMetric interface {
	Observe(ctx context.Context, verb string, u url.URL, latency time.Duration)
}

// ResolverLatencyMetric records how long resolving host took.
type ResolverLatencyMetric interface {
	Observe(ctx context.Context, host string, latency time.Duration)
}

// SizeMetric records the size of a request or response by verb and host.
type SizeMetric interface {
	Observe(ctx context.Context, verb string, host string, size float64)
}

// ResultMetric counts responses by status code, method and host.
type ResultMetric interface {
	Increment(ctx context.Context, code string, method string, host string)
}

// CallsMetric counts exec credential plugin calls by exit code and call
// status.
type CallsMetric interface {
	// Increment counts one call.
	Increment(exitCode int, callStatus string)
}

// PolicyCallsMetric counts exec plugin policy decisions by status,
// "allowed" or "denied".
type PolicyCallsMetric interface {
	// Increment counts one decision.
	Increment(status string)
}

// RetryMetric counts retried requests by status code, method and host.
type RetryMetric interface {
	IncrementRetry(ctx context.Context, code string, method string, host string)
}

// TransportCacheMetric records the number of entries in the transport cache.
type TransportCacheMetric interface {
	Observe(value int)
}

// TransportCreateCallsMetric counts transport constructions by cache
// outcome: "hit", "miss", "miss-gc" or "uncacheable".
type TransportCreateCallsMetric interface {
	Increment(result string)
}

// TransportCAReloadsMetric counts attempts to reload a certificate
// authority by result and reason.
type TransportCAReloadsMetric interface {
	Increment(result, reason string)
}

// TransportCertRotationGCCallsMetric counts certificate rotation goroutines
// stopped by garbage collection cleanup.
type TransportCertRotationGCCallsMetric interface {
	Increment()
}

// TransportCacheGCCallsMetric counts garbage collection cleanups of
// transport cache entries by result: "deleted" or "skipped".
type TransportCacheGCCallsMetric interface {
	Increment(result string)
}

// The metrics the library records. They are no-ops until Register installs
// real implementations.
var (
	// ClientCertExpiry is the expiry time of the client certificate in use.
	ClientCertExpiry ExpiryMetric = discardExpiry{}
	// ClientCertRotationAge is the age a client certificate reached before it
	// was rotated.
	ClientCertRotationAge DurationMetric = discardDuration{}
	// RequestLatency is the latency of REST requests.
	RequestLatency LatencyMetric = metricsdiscard.Latency{}
	// ResolverLatency is the latency of DNS resolution.
	ResolverLatency ResolverLatencyMetric = discardResolverLatency{}
	// RequestSize is the size of REST request bodies.
	RequestSize SizeMetric = discardSize{}
	// ResponseSize is the size of REST response bodies.
	ResponseSize SizeMetric = discardSize{}
	// RateLimiterLatency is the time requests spend waiting on the client
	// side rate limiter.
	RateLimiterLatency LatencyMetric = metricsdiscard.Latency{}
	// RequestResult counts REST responses.
	RequestResult ResultMetric = discardResult{}
	// ExecPluginCalls counts exec credential plugin calls.
	ExecPluginCalls CallsMetric = discardCalls{}
	// ExecPluginPolicyCalls counts exec plugin policy decisions.
	ExecPluginPolicyCalls PolicyCallsMetric = discardLabel{}
	// RequestRetry counts retried REST requests.
	RequestRetry RetryMetric = discardRetry{}
	// TransportCacheEntries is the number of cached transports.
	TransportCacheEntries TransportCacheMetric = discardCount{}
	// TransportCreateCalls counts transport constructions.
	TransportCreateCalls TransportCreateCallsMetric = discardLabel{}
	// TransportCAReloads counts certificate authority reload attempts.
	TransportCAReloads TransportCAReloadsMetric = discardTwoLabels{}
	// TransportCertRotationGCCalls counts certificate rotation goroutines
	// stopped by garbage collection cleanup.
	TransportCertRotationGCCalls TransportCertRotationGCCallsMetric = discardCounter{}
	// TransportCacheGCCalls counts garbage collection cleanups of transport
	// cache entries.
	TransportCacheGCCalls TransportCacheGCCallsMetric = discardLabel{}
)
