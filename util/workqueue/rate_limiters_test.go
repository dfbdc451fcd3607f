package workqueue

import (
	"fmt"
	"math"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	tests := []struct {
		name       string
		base, max  time.Duration
		wantDelays []time.Duration
	}{
		{
			name: "doubles up to the cap",
			base: time.Millisecond, max: 10 * time.Millisecond,
			wantDelays: []time.Duration{1, 2, 4, 8, 10, 10},
		},
		{
			name: "huge exponent stays at the cap",
			base: time.Duration(math.MaxInt64 / 4), max: 1000 * time.Second,
			wantDelays: []time.Duration{1000e9, 1000e9, 1000e9, 1000e9},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewTypedItemExponentialFailureRateLimiter[string](tc.base, tc.max)
			unit := time.Millisecond
			if tc.base > time.Second {
				unit = 1
			}
			for i, want := range tc.wantDelays {
				if got := r.When("a"); got != want*unit {
					t.Fatalf("failure %d: When = %v, want %v", i, got, want*unit)
				}
			}
			if got := r.NumRequeues("a"); got != len(tc.wantDelays) {
				t.Fatalf("NumRequeues = %d, want %d", got, len(tc.wantDelays))
			}
			if got := r.When("b"); got != min(tc.base, tc.max) {
				t.Fatalf("other item's first delay = %v, want %v (items are independent)", got, tc.base)
			}
			r.Forget("a")
			if got := r.NumRequeues("a"); got != 0 {
				t.Fatalf("NumRequeues after Forget = %d", got)
			}
			if got := r.When("a"); got != min(tc.base, tc.max) {
				t.Fatalf("delay after Forget = %v, want %v", got, tc.base)
			}
		})
	}
}

func TestItemExponentialFailureRateLimiterHugeFailureCount(t *testing.T) {
	r := NewTypedItemExponentialFailureRateLimiter[int](time.Millisecond, time.Hour)
	for range 2000 { // 2^2000 overflows float64 to +Inf
		r.When(1)
	}
	if got := r.When(1); got != time.Hour {
		t.Fatalf("When after 2000 failures = %v, want the cap", got)
	}
}

func TestItemFastSlowRateLimiter(t *testing.T) {
	r := NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 10*time.Second, 3)
	want := []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 10 * time.Second, 10 * time.Second}
	for i, w := range want {
		if got := r.When("a"); got != w {
			t.Fatalf("attempt %d: When = %v, want %v", i+1, got, w)
		}
	}
	if got := r.NumRequeues("a"); got != 5 {
		t.Fatalf("NumRequeues = %d, want 5", got)
	}
	r.Forget("a")
	if got := r.When("a"); got != 5*time.Millisecond {
		t.Fatalf("after Forget When = %v, want fast delay", got)
	}
}

func TestMaxOfRateLimiter(t *testing.T) {
	r := NewTypedMaxOfRateLimiter(
		NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 3*time.Second, 3),
		NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
	)
	want := []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond, 3 * time.Second, 3 * time.Second}
	for i, w := range want {
		if got := r.When("a"); got != w {
			t.Fatalf("attempt %d: When = %v, want %v", i+1, got, w)
		}
	}
	if got := r.NumRequeues("a"); got != 5 {
		t.Fatalf("NumRequeues = %d, want 5", got)
	}
	r.Forget("a")
	if got := r.NumRequeues("a"); got != 0 {
		t.Fatalf("Forget did not reach every limiter: NumRequeues = %d", got)
	}
}

func TestBucketRateLimiter(t *testing.T) {
	r := &TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Limit(1), 2)}
	if d := r.When("a"); d != 0 {
		t.Fatalf("first token delayed %v", d)
	}
	if d := r.When("b"); d != 0 {
		t.Fatalf("second token (burst 2) delayed %v", d)
	}
	if d := r.When("c"); d < 900*time.Millisecond || d > time.Second {
		t.Fatalf("third token delay = %v, want about 1s", d)
	}
	if n := r.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues = %d; the bucket tracks no items", n)
	}
	r.Forget("a") // no-op, must not panic
}

func TestWithMaxWaitRateLimiter(t *testing.T) {
	r := NewTypedWithMaxWaitRateLimiter(NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Hour), 3*time.Second)
	want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}
	for i, w := range want {
		if got := r.When("a"); got != w {
			t.Fatalf("attempt %d: When = %v, want %v", i+1, got, w)
		}
	}
	if got := r.NumRequeues("a"); got != 4 {
		t.Fatalf("NumRequeues = %d, want 4", got)
	}
	r.Forget("a")
	if got := r.NumRequeues("a"); got != 0 {
		t.Fatalf("NumRequeues after Forget = %d", got)
	}
}

func TestDefaultRateLimiters(t *testing.T) {
	ctrl := DefaultTypedControllerRateLimiter[string]()
	if got := ctrl.When("a"); got != 5*time.Millisecond {
		t.Fatalf("controller limiter first delay = %v, want 5ms", got)
	}
	if got := ctrl.When("a"); got != 10*time.Millisecond {
		t.Fatalf("controller limiter second delay = %v, want 10ms", got)
	}
	// 100 tokens of burst are available, then 10 per second: 120 requests
	// in well under a second leave the last one waiting about a second.
	for i := range 98 {
		if got := ctrl.When(fmt.Sprint("burst-", i)); got != 5*time.Millisecond {
			t.Fatalf("item %d: delay %v, want 5ms while the bucket has tokens", i, got)
		}
	}
	var last time.Duration
	for i := range 20 {
		last = ctrl.When(fmt.Sprint("over-", i))
	}
	if last < 500*time.Millisecond {
		t.Fatalf("delay after the burst = %v, want the bucket's ~1s", last)
	}

	item := DefaultTypedItemBasedRateLimiter[int]()
	for i, want := range []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond} {
		if got := item.When(1); got != want {
			t.Fatalf("item limiter failure %d: %v, want %v", i, got, want)
		}
	}
}
