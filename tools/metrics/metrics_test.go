package metrics

import (
	"context"
	"net/url"
	"sync"
	"testing"
	"time"
)

type countingLatency struct{ n int }

func (c *countingLatency) Observe(context.Context, string, url.URL, time.Duration) { c.n++ }

type countingResult struct{ codes []string }

func (c *countingResult) Increment(_ context.Context, code, _, _ string) {
	c.codes = append(c.codes, code)
}

func TestDefaultsAreNoOps(t *testing.T) {
	ctx := context.Background()
	// None of these may panic or block.
	ClientCertExpiry.Set(nil)
	ClientCertRotationAge.Observe(time.Second)
	RequestLatency.Observe(ctx, "GET", url.URL{}, time.Second)
	ResolverLatency.Observe(ctx, "host", time.Second)
	RequestSize.Observe(ctx, "GET", "host", 1)
	ResponseSize.Observe(ctx, "GET", "host", 1)
	RateLimiterLatency.Observe(ctx, "GET", url.URL{}, time.Second)
	RequestResult.Increment(ctx, "200", "GET", "host")
	ExecPluginCalls.Increment(0, "no_error")
	ExecPluginPolicyCalls.Increment("allowed")
	RequestRetry.IncrementRetry(ctx, "500", "GET", "host")
	TransportCacheEntries.Observe(1)
	TransportCreateCalls.Increment("hit")
	TransportCAReloads.Increment("success", "rotation")
	TransportCertRotationGCCalls.Increment()
	TransportCacheGCCalls.Increment("deleted")
	EnsureRegistered() // nothing registered yet: does nothing
}

// TestRegister runs the whole Register life cycle; Register takes effect
// only once per process, so it lives in a single test.
func TestRegister(t *testing.T) {
	latency := &countingLatency{}
	result := &countingResult{}
	var fnCalls int
	var mu sync.Mutex
	defaultSize := RequestSize

	Register(RegisterOpts{
		RequestLatency: latency,
		RequestResult:  result,
		RegisterFn: func() {
			mu.Lock()
			fnCalls++
			mu.Unlock()
		},
	})

	ctx := context.Background()
	RequestLatency.Observe(ctx, "GET", url.URL{Host: "h"}, time.Millisecond)
	RequestResult.Increment(ctx, "404", "GET", "h")
	if latency.n != 1 {
		t.Errorf("registered latency saw %d observations, want 1", latency.n)
	}
	if len(result.codes) != 1 || result.codes[0] != "404" {
		t.Errorf("registered result saw %q, want [404]", result.codes)
	}
	if RequestSize != defaultSize {
		t.Error("a metric left nil in RegisterOpts was replaced")
	}
	if RateLimiterLatency == RequestLatency {
		t.Error("RateLimiterLatency was replaced although not given")
	}

	// Later registrations are ignored.
	other := &countingLatency{}
	Register(RegisterOpts{RequestLatency: other, RegisterFn: func() { t.Error("second RegisterFn ran") }})
	if RequestLatency != latency {
		t.Error("a second Register replaced RequestLatency")
	}

	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			EnsureRegistered()
		}()
	}
	wg.Wait()
	EnsureRegistered()
	if fnCalls != 1 {
		t.Errorf("RegisterFn ran %d times, want 1", fnCalls)
	}
}
