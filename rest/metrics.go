package rest

import (
	"context"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync"
	"time"

	"github.com/kubeclient/client-go/internal/metricsdiscard"
	"github.com/kubeclient/client-go/tools/metrics"
)

// metricLabels returns the status code label ("<error>" when no response
// arrived) and the host label ("none" without a base URL) of an attempt.
// Error strings are not used as labels: their cardinality is unbounded.
func metricLabels(r *Request, resp *http.Response) (code, host string) {
	code, host = "<error>", "none"
	if resp != nil {
		code = strconv.Itoa(resp.StatusCode)
	}
	if r.c.base != nil {
		host = r.c.base.Host
	}
	return code, host
}

func observeRequestResult(ctx context.Context, code, verb, host string) {
	metrics.RequestResult.Increment(ctx, code, verb, host)
}

func observeRequestRetry(ctx context.Context, code, verb, host string) {
	metrics.RequestRetry.IncrementRetry(ctx, code, verb, host)
}

func observeRateLimiterLatency(ctx context.Context, r *Request, waited time.Duration) {
	observeLatency(ctx, metrics.RateLimiterLatency, r, waited)
}

func observeRequestLatency(ctx context.Context, r *Request, took time.Duration) {
	observeLatency(ctx, metrics.RequestLatency, r, took)
}

// observeLatency records took for r in m, unless m is the default that
// records nothing: r's URL template is then not built.
func observeLatency(ctx context.Context, m metrics.LatencyMetric, r *Request, took time.Duration) {
	if _, discarded := m.(metricsdiscard.Latency); discarded {
		return
	}
	m.Observe(ctx, r.verb, r.metricURLTemplate(), took)
}

// observeRequestSize reports the size of a sent body when it is known.
func observeRequestSize(ctx context.Context, r *Request, req *http.Request) {
	// ContentLength -1, or 0 with a body, means the length is unknown.
	if req.ContentLength < 0 || (req.ContentLength == 0 && req.Body != nil) {
		return
	}
	metrics.RequestSize.Observe(ctx, r.verb, r.host(), float64(req.ContentLength))
}

func observeResponseSize(ctx context.Context, r *Request, size int) {
	metrics.ResponseSize.Observe(ctx, r.verb, r.host(), float64(size))
}

// withDNSLatencyTrace returns ctx carrying an httptrace hook that reports
// the duration of each DNS lookup to metrics.ResolverLatency.
func withDNSLatencyTrace(ctx context.Context) context.Context {
	var (
		mu    sync.Mutex // guards start and host
		start time.Time
		host  string
	)
	trace := &httptrace.ClientTrace{
		DNSStart: func(info httptrace.DNSStartInfo) {
			mu.Lock()
			defer mu.Unlock()
			start, host = time.Now(), info.Host
		},
		DNSDone: func(httptrace.DNSDoneInfo) {
			mu.Lock()
			defer mu.Unlock()
			metrics.ResolverLatency.Observe(ctx, host, time.Since(start))
		},
	}
	return httptrace.WithClientTrace(ctx, trace)
}
