package flowcontrol

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	testingclock "k8s.io/utils/clock/testing"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestTokenBucketTryAccept(t *testing.T) {
	type step struct {
		advance time.Duration
		want    bool
	}
	tests := []struct {
		name  string
		qps   float32
		burst int
		steps []step
	}{
		{
			name: "burst then refill", qps: 1, burst: 3,
			steps: []step{{0, true}, {0, true}, {0, true}, {0, false}, {999 * time.Millisecond, false}, {time.Millisecond, true}, {0, false}},
		},
		{
			name: "refill is capped at burst", qps: 10, burst: 2,
			steps: []step{{0, true}, {0, true}, {time.Hour, true}, {0, true}, {0, false}, {100 * time.Millisecond, true}},
		},
		{
			name: "zero burst never accepts", qps: 100, burst: 0,
			steps: []step{{0, false}, {time.Second, false}},
		},
		{
			name: "zero qps only grants the initial burst", qps: 0, burst: 1,
			steps: []step{{0, true}, {time.Hour, false}},
		},
	}
	for _, tt := range tests {
		for _, passive := range []bool{false, true} {
			name := tt.name + "/active"
			if passive {
				name = tt.name + "/passive"
			}
			t.Run(name, func(t *testing.T) {
				clk := testingclock.NewFakeClock(epoch)
				var rl PassiveRateLimiter
				if passive {
					rl = NewTokenBucketPassiveRateLimiterWithClock(tt.qps, tt.burst, clk)
				} else {
					rl = NewTokenBucketRateLimiterWithClock(tt.qps, tt.burst, clk)
				}
				defer rl.Stop()
				if got := rl.QPS(); got != tt.qps {
					t.Errorf("QPS() = %v, want %v", got, tt.qps)
				}
				for i, s := range tt.steps {
					clk.Step(s.advance)
					if got := rl.TryAccept(); got != s.want {
						t.Errorf("step %d (after +%v): TryAccept() = %v, want %v", i, s.advance, got, s.want)
					}
				}
			})
		}
	}
}

func TestTokenBucketAcceptSleepsOnTheClock(t *testing.T) {
	clk := testingclock.NewFakeClock(epoch)
	rl := NewTokenBucketRateLimiterWithClock(2, 2, clk)
	// Two tokens are in the bucket; after that each token takes 500ms. The
	// fake clock's Sleep advances it, so the total time slept is observable.
	wantElapsed := []time.Duration{0, 0, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond}
	for i, want := range wantElapsed {
		rl.Accept()
		if got := clk.Since(epoch); got != want {
			t.Errorf("after Accept %d clock advanced by %v, want %v", i, got, want)
		}
	}
}

func TestTokenBucketWait(t *testing.T) {
	t.Run("token available returns at once", func(t *testing.T) {
		clk := testingclock.NewFakeClock(epoch)
		rl := NewTokenBucketRateLimiterWithClock(1, 1, clk)
		if err := rl.Wait(context.Background()); err != nil {
			t.Fatalf("Wait: %v", err)
		}
		if clk.HasWaiters() {
			t.Error("Wait left a timer behind")
		}
	})

	t.Run("waits for the clock", func(t *testing.T) {
		clk := testingclock.NewFakeClock(epoch)
		rl := NewTokenBucketRateLimiterWithClock(1, 1, clk)
		if !rl.TryAccept() {
			t.Fatal("first token refused")
		}
		done := make(chan error, 1)
		go func() { done <- rl.Wait(context.Background()) }()
		waitForTimer(t, clk)
		select {
		case err := <-done:
			t.Fatalf("Wait returned %v before the token was due", err)
		default:
		}
		clk.Step(time.Second)
		if err := <-done; err != nil {
			t.Fatalf("Wait: %v", err)
		}
	})

	t.Run("canceled context", func(t *testing.T) {
		clk := testingclock.NewFakeClock(epoch)
		rl := NewTokenBucketRateLimiterWithClock(1, 1, clk)
		rl.TryAccept()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- rl.Wait(ctx) }()
		waitForTimer(t, clk)
		cancel()
		if err := <-done; err != context.Canceled {
			t.Fatalf("Wait = %v, want %v", err, context.Canceled)
		}
		// The canceled reservation is returned: after one second exactly one
		// token is available again.
		clk.Step(time.Second)
		if !rl.TryAccept() {
			t.Error("token not available after the canceled wait")
		}
		if rl.TryAccept() {
			t.Error("more than one token available")
		}
	})

	t.Run("already canceled context takes nothing", func(t *testing.T) {
		clk := testingclock.NewFakeClock(epoch)
		rl := NewTokenBucketRateLimiterWithClock(1, 1, clk)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := rl.Wait(ctx); err != context.Canceled {
			t.Fatalf("Wait = %v, want %v", err, context.Canceled)
		}
		if !rl.TryAccept() {
			t.Error("the token was consumed by a Wait on a canceled context")
		}
	})

	t.Run("deadline shorter than the delay fails at once", func(t *testing.T) {
		clk := testingclock.NewFakeClock(epoch)
		rl := NewTokenBucketRateLimiterWithClock(0.001, 1, clk) // one token per 1000s
		rl.TryAccept()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := rl.Wait(ctx); err == nil {
			t.Fatal("Wait succeeded although the token is due after the deadline")
		}
		if clk.HasWaiters() {
			t.Error("Wait left a timer behind")
		}
	})

	t.Run("zero burst", func(t *testing.T) {
		rl := NewTokenBucketRateLimiterWithClock(1, 0, testingclock.NewFakeClock(epoch))
		if err := rl.Wait(context.Background()); err == nil {
			t.Fatal("Wait succeeded on a limiter with burst 0")
		}
	})
}

// waitForTimer blocks until a goroutine waits on a timer of clk.
func waitForTimer(t *testing.T, clk *testingclock.FakeClock) {
	t.Helper()
	waiting := func(context.Context) (bool, error) { return clk.HasWaiters(), nil }
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, waiting); err != nil {
		t.Fatal("nobody started waiting on the clock")
	}
}

func TestRealClockWait(t *testing.T) {
	rl := NewTokenBucketRateLimiter(1000, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		if err := rl.Wait(ctx); err != nil {
			t.Fatalf("Wait %d: %v", i, err)
		}
	}
	if p := NewTokenBucketPassiveRateLimiter(5, 1); !p.TryAccept() || p.TryAccept() {
		t.Error("passive limiter with burst 1 did not grant exactly one immediate token")
	}
}

func TestFakeRateLimiters(t *testing.T) {
	always := NewFakeAlwaysRateLimiter()
	for i := 0; i < 100; i++ {
		if !always.TryAccept() {
			t.Fatal("always limiter refused")
		}
		always.Accept()
		if err := always.Wait(context.Background()); err != nil {
			t.Fatalf("always limiter Wait: %v", err)
		}
	}
	if always.QPS() != 1 {
		t.Errorf("always QPS = %v, want 1", always.QPS())
	}
	always.Stop()

	never := NewFakeNeverRateLimiter()
	if never.TryAccept() {
		t.Error("never limiter accepted")
	}
	if err := never.Wait(context.Background()); err == nil {
		t.Error("never limiter Wait succeeded")
	}
	accepted := make(chan struct{})
	go func() {
		never.Accept()
		close(accepted)
	}()
	select {
	case <-accepted:
		t.Fatal("never limiter Accept returned before Stop")
	case <-time.After(20 * time.Millisecond):
	}
	never.Stop()
	<-accepted
	never.Stop() // a second Stop is harmless
}
