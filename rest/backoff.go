package rest

import (
	"context"
	"net/url"
	"os"
	"strconv"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/util/flowcontrol"
)

// BackoffManager delays requests to hosts that recently failed.
//
// Deprecated: BackoffManager.Sleep ignores the caller's context. Use
// BackoffManagerWithContext instead.
type BackoffManager interface {
	UpdateBackoff(actualURL *url.URL, err error, responseCode int)
	CalculateBackoff(actualURL *url.URL) time.Duration
	Sleep(d time.Duration)
}

// BackoffManagerWithContext delays requests to hosts that recently failed;
// its sleep ends early when the context is done.
type BackoffManagerWithContext interface {
	UpdateBackoffWithContext(ctx context.Context, actualURL *url.URL, err error, responseCode int)
	CalculateBackoffWithContext(ctx context.Context, actualURL *url.URL) time.Duration
	SleepWithContext(ctx context.Context, d time.Duration)
}

var (
	_ BackoffManager            = &URLBackoff{}
	_ BackoffManagerWithContext = &URLBackoff{}
	_ BackoffManager            = &NoBackoff{}
	_ BackoffManagerWithContext = &NoBackoff{}
)

// URLBackoff backs off exponentially per host: responses with status 429 or
// above 499 lengthen the delay for that host, anything else resets it.
type URLBackoff struct {
	// Backoff tracks the delay of each host.
	Backoff *flowcontrol.Backoff
}

// NoBackoff never delays a request; its sleeps still wait the duration they
// are asked to (Retry-After waits go through them).
type NoBackoff struct {
}

// UpdateBackoff does nothing.
func (n *NoBackoff) UpdateBackoff(actualURL *url.URL, err error, responseCode int) {}

// UpdateBackoffWithContext does nothing.
func (n *NoBackoff) UpdateBackoffWithContext(ctx context.Context, actualURL *url.URL, err error, responseCode int) {
}

// CalculateBackoff returns zero.
func (n *NoBackoff) CalculateBackoff(actualURL *url.URL) time.Duration { return 0 }

// CalculateBackoffWithContext returns zero.
func (n *NoBackoff) CalculateBackoffWithContext(ctx context.Context, actualURL *url.URL) time.Duration {
	return 0
}

// Sleep waits for d.
func (n *NoBackoff) Sleep(d time.Duration) { time.Sleep(d) }

// SleepWithContext waits for d or until ctx is done.
func (n *NoBackoff) SleepWithContext(ctx context.Context, d time.Duration) {
	sleepOn(ctx, clock.RealClock{}, d)
}

// Disable replaces the backoff with one that never waits, for tests that
// send many failing requests.
func (b *URLBackoff) Disable() {
	b.Backoff = flowcontrol.NewBackOff(0, 0)
}

// hostKey is the backoff key of u: its host.
func hostKey(u *url.URL) string {
	return u.Host
}

// UpdateBackoff records the outcome of a request to actualURL.
func (b *URLBackoff) UpdateBackoff(actualURL *url.URL, err error, responseCode int) {
	b.UpdateBackoffWithContext(context.Background(), actualURL, err, responseCode)
}

// UpdateBackoffWithContext records the outcome of a request to actualURL:
// 429 and 5xx lengthen the host's delay, anything else resets it.
func (b *URLBackoff) UpdateBackoffWithContext(ctx context.Context, actualURL *url.URL, err error, responseCode int) {
	if responseCode == 429 || responseCode >= 500 {
		b.Backoff.Next(hostKey(actualURL), b.Backoff.Clock.Now())
		return
	}
	if responseCode >= 300 || err != nil {
		klog.FromContext(ctx).V(4).Info("Client is returning errors", "code", responseCode, "err", err)
	}
	b.Backoff.Reset(hostKey(actualURL))
}

// CalculateBackoff returns the current delay for the host of actualURL.
func (b *URLBackoff) CalculateBackoff(actualURL *url.URL) time.Duration {
	return b.Backoff.Get(hostKey(actualURL))
}

// CalculateBackoffWithContext returns the current delay for the host of
// actualURL.
func (b *URLBackoff) CalculateBackoffWithContext(_ context.Context, actualURL *url.URL) time.Duration {
	return b.CalculateBackoff(actualURL)
}

// Sleep waits d on the backoff's clock.
func (b *URLBackoff) Sleep(d time.Duration) {
	b.Backoff.Clock.Sleep(d)
}

// SleepWithContext waits d on the backoff's clock or until ctx is done.
func (b *URLBackoff) SleepWithContext(ctx context.Context, d time.Duration) {
	sleepOn(ctx, b.Backoff.Clock, d)
}

// sleepOn waits d on clk, or less when ctx ends first. It is the
// SleepWithContext of both NoBackoff (on the real clock) and URLBackoff.
func sleepOn(ctx context.Context, clk clock.Clock, d time.Duration) {
	if d > 0 {
		timer := clk.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C():
		case <-ctx.Done():
		}
	}
}

// contextFreeBackoff adapts a deprecated BackoffManager.
type contextFreeBackoff struct {
	BackoffManager
}

func (b contextFreeBackoff) UpdateBackoffWithContext(_ context.Context, u *url.URL, err error, code int) {
	b.UpdateBackoff(u, err, code)
}

func (b contextFreeBackoff) CalculateBackoffWithContext(_ context.Context, u *url.URL) time.Duration {
	return b.CalculateBackoff(u)
}

func (b contextFreeBackoff) SleepWithContext(_ context.Context, d time.Duration) {
	b.Sleep(d)
}

// Environment variables that turn on per-host exponential backoff for every
// client, in whole seconds.
const (
	envBackoffBase     = "KUBE_CLIENT_BACKOFF_BASE"
	envBackoffDuration = "KUBE_CLIENT_BACKOFF_DURATION"
)

// backoffFromEnvironment returns a URLBackoff when both backoff variables
// hold integers, and NoBackoff otherwise.
func backoffFromEnvironment() BackoffManagerWithContext {
	base, errBase := strconv.ParseInt(os.Getenv(envBackoffBase), 10, 64)
	limit, errLimit := strconv.ParseInt(os.Getenv(envBackoffDuration), 10, 64)
	if errBase != nil || errLimit != nil {
		return &NoBackoff{}
	}
	return &URLBackoff{Backoff: flowcontrol.NewBackOff(time.Duration(base)*time.Second, time.Duration(limit)*time.Second)}
}
