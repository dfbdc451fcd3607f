package rest

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"testing/synctest"
	"time"

	"k8s.io/klog/v2"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/util/flowcontrol"
)

func TestURLBackoff(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	b := &URLBackoff{Backoff: flowcontrol.NewFakeBackOff(time.Second, 8*time.Second, clk)}
	host1, _ := url.Parse("https://h1:6443/api/v1/pods")
	host1Other, _ := url.Parse("https://h1:6443/apis/apps/v1")
	host2, _ := url.Parse("https://h2/api")

	steps := []struct {
		u    *url.URL
		code int
		err  error
		want time.Duration // backoff of host1 afterwards
	}{
		{host1, 500, nil, time.Second},
		{host1Other, 503, nil, 2 * time.Second}, // same host, same key
		{host1, 429, nil, 4 * time.Second},
		{host1, 500, nil, 8 * time.Second},
		{host1, 500, nil, 8 * time.Second}, // capped
		{host1, 404, nil, 0},               // any other response resets
		{host1, 502, nil, time.Second},
		{host1, 0, errors.New("refused"), 0},
	}
	for i, s := range steps {
		b.UpdateBackoff(s.u, s.err, s.code)
		if got := b.CalculateBackoff(host1); got != s.want {
			t.Errorf("step %d (code %d): backoff %v, want %v", i, s.code, got, s.want)
		}
	}
	if got := b.CalculateBackoffWithContext(context.Background(), host2); got != 0 {
		t.Errorf("untouched host has backoff %v", got)
	}
	b.UpdateBackoffWithContext(context.Background(), host2, nil, 500)
	b.Disable()
	b.UpdateBackoff(host2, nil, 500)
	if got := b.CalculateBackoff(host2); got != 0 {
		t.Errorf("disabled backoff = %v", got)
	}
}

func TestURLBackoffSleepUsesClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := testingclock.NewFakeClock(time.Now())
		b := &URLBackoff{Backoff: flowcontrol.NewFakeBackOff(time.Second, time.Minute, clk)}
		done := make(chan error, 1)
		go func() {
			b.SleepWithContext(context.Background(), 5*time.Second)
			done <- nil
		}()
		settled(t, "the sleep waits on the clock", func() bool { return len(done) == 0 && clk.HasWaiters() })
		clk.Step(5 * time.Second)
		<-done

		// Cancellation ends the sleep without the clock moving.
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			b.SleepWithContext(ctx, time.Hour)
			done <- nil
		}()
		settled(t, "the sleep waits on the clock", func() bool { return len(done) == 0 && clk.HasWaiters() })
		cancel()
		<-done
		b.SleepWithContext(context.Background(), 0) // returns at once
	})
}

func TestNoBackoff(t *testing.T) {
	n := &NoBackoff{}
	u, _ := url.Parse("http://h")
	n.UpdateBackoff(u, nil, 500)
	n.UpdateBackoffWithContext(context.Background(), u, nil, 500)
	if n.CalculateBackoff(u) != 0 || n.CalculateBackoffWithContext(context.Background(), u) != 0 {
		t.Error("NoBackoff computed a delay")
	}
	n.Sleep(0)
	// In a bubble, a sleep that ignored the cancelled context would move
	// the bubble's clock by the hour.
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		start := time.Now()
		n.SleepWithContext(ctx, time.Hour)
		if d := time.Since(start); d != 0 {
			t.Errorf("SleepWithContext with a cancelled context slept %v", d)
		}
	})
}

// legacyBackoff implements only the deprecated BackoffManager.
type legacyBackoff struct{ recordingBackoff }

func (l *legacyBackoff) UpdateBackoff(u *url.URL, err error, code int) {
	l.UpdateBackoffWithContext(context.Background(), u, err, code)
}
func (l *legacyBackoff) CalculateBackoff(u *url.URL) time.Duration { return 0 }
func (l *legacyBackoff) Sleep(d time.Duration) {
	l.SleepWithContext(context.Background(), d)
}

func TestDeprecatedBackOffIsAdapted(t *testing.T) {
	srv := newScriptedServer(t, throttled("4"), okPod(t))
	legacy := &legacyBackoff{}
	if err := coreV1Client(t, srv.Server).Get().Resource("pods").BackOff(legacy).Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	if got := legacy.recorded(); len(got) != 1 || got[0] != 4*time.Second {
		t.Errorf("legacy sleeps = %v", got)
	}
	legacy.mu.Lock()
	updates := append([]int(nil), legacy.updates...)
	legacy.mu.Unlock()
	if len(updates) != 2 || updates[0] != 429 || updates[1] != 200 {
		t.Errorf("legacy updates = %v", updates)
	}
	r := offlineClient(t, "http://h").Get().BackOff(nil)
	if _, ok := r.backoff.(*NoBackoff); !ok {
		t.Errorf("BackOff(nil) = %T", r.backoff)
	}
	r = offlineClient(t, "http://h").Get().BackOffWithContext(nil)
	if _, ok := r.backoff.(*NoBackoff); !ok {
		t.Errorf("BackOffWithContext(nil) = %T", r.backoff)
	}
}

func TestBackoffFromEnvironment(t *testing.T) {
	t.Setenv(envBackoffBase, "")
	t.Setenv(envBackoffDuration, "")
	if _, ok := backoffFromEnvironment().(*NoBackoff); !ok {
		t.Error("no variables should mean NoBackoff")
	}
	t.Setenv(envBackoffBase, "2")
	t.Setenv(envBackoffDuration, "30")
	b, ok := backoffFromEnvironment().(*URLBackoff)
	if !ok {
		t.Fatal("both variables set should give a URLBackoff")
	}
	u, _ := url.Parse("http://h")
	b.UpdateBackoff(u, nil, 500)
	if got := b.CalculateBackoff(u); got < 2*time.Second || got > 30*time.Second {
		t.Errorf("first backoff = %v", got)
	}
	t.Setenv(envBackoffDuration, "x")
	if _, ok := backoffFromEnvironment().(*NoBackoff); !ok {
		t.Error("a malformed variable should mean NoBackoff")
	}
}

func TestPathSegmentValidation(t *testing.T) {
	tests := []struct {
		name     string
		prefix   bool
		problems int
	}{
		{"pods", false, 0},
		{".", false, 1},
		{"..", false, 1},
		{"..", true, 0},
		{"a/b", false, 1},
		{"a%b", true, 1},
		{"%/", false, 2},
		{"...", false, 0},
	}
	for _, tc := range tests {
		got := ValidatePathSegmentName(tc.name, tc.prefix)
		if len(got) != tc.problems {
			t.Errorf("ValidatePathSegmentName(%q, %v) = %v", tc.name, tc.prefix, got)
		}
	}
	if msgs := IsValidPathSegmentName(".."); len(msgs) != 1 || msgs[0] != "may not be '..'" {
		t.Errorf("messages = %v", msgs)
	}
	if msgs := IsValidPathSegmentPrefix("a/%"); len(msgs) != 2 || msgs[0] != "may not contain '/'" {
		t.Errorf("messages = %v", msgs)
	}
}

func TestRateLimitedLogger(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	l := &rateLimitedLogger{
		clock:  clk,
		levels: []*rateLimitedLevel{{level: 0, minInterval: 10 * time.Second}},
	}
	logger := klog.Background()
	steps := []struct {
		advance time.Duration
		want    bool
	}{
		{0, true},                // the first message is written
		{0, false},               // an immediate repeat is dropped
		{9 * time.Second, false}, // still inside the interval
		{time.Second, true},      // the interval has elapsed
		{time.Second, false},
	}
	for i, s := range steps {
		clk.Step(s.advance)
		if _, ok := l.claim(logger); ok != s.want {
			t.Errorf("step %d: claim = %v, want %v", i, ok, s.want)
		}
	}
	l.info(logger, "dropped: too soon")
}
