package rest

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestLatencyLabelsOnlyForRecordedMetrics: a request's URL template, the
// label of the latency metrics, is built only for a metric that records:
// with tools/metrics' defaults, observing a latency allocates nothing;
// with a registered metric, it sees the template.
func TestLatencyLabelsOnlyForRecordedMetrics(t *testing.T) {
	ctx := context.Background()
	r := offlineClient(t, "http://h").Get().Namespace("ns").Resource("pods").Name("web").Param("limit", "5")
	if allocs := testing.AllocsPerRun(20, func() {
		observeRequestLatency(ctx, r, time.Second)
		observeRateLimiterLatency(ctx, r, time.Second)
	}); allocs != 0 {
		t.Errorf("observing with the default metrics took %v allocations, want none", allocs)
	}

	m := recordMetrics(t)
	observeRequestLatency(ctx, r, time.Second)
	observeRateLimiterLatency(ctx, r, time.Second)
	if want := []string{"GET /api/v1/namespaces/{namespace}/pods/{name}"}; !slices.Equal(m.latencies, want) || !slices.Equal(m.limiterWaits, want) {
		t.Errorf("recorded latencies %q and limiter waits %q, want %q", m.latencies, m.limiterWaits, want)
	}
}
