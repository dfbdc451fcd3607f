package workqueue

import (
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

func TestUntypedConstructors(t *testing.T) {
	c := testingclock.NewFakeClock(epoch)
	limiter := NewItemExponentialFailureRateLimiter(time.Millisecond, time.Second)
	queues := map[string]Interface{
		"New":                                       New(),
		"NewNamed":                                  NewNamed("untyped-named"),
		"NewWithConfig":                             NewWithConfig(QueueConfig{}),
		"NewDelayingQueue":                          NewDelayingQueue(),
		"NewNamedDelayingQueue":                     NewNamedDelayingQueue("untyped-delaying"),
		"NewDelayingQueueWithConfig":                NewDelayingQueueWithConfig(DelayingQueueConfig{Clock: c}),
		"NewDelayingQueueWithCustomClock":           NewDelayingQueueWithCustomClock(c, ""),
		"NewDelayingQueueWithCustomQueue":           NewDelayingQueueWithCustomQueue(New(), ""),
		"TypedNewDelayingQueue":                     TypedNewDelayingQueue[any](),
		"NewRateLimitingQueue":                      NewRateLimitingQueue(DefaultControllerRateLimiter()),
		"NewNamedRateLimitingQueue":                 NewNamedRateLimitingQueue(DefaultItemBasedRateLimiter(), "untyped-rl"),
		"NewRateLimitingQueueWithConfig":            NewRateLimitingQueueWithConfig(limiter, RateLimitingQueueConfig{Clock: c}),
		"NewRateLimitingQueueWithDelayingInterface": NewRateLimitingQueueWithDelayingInterface(NewDelayingQueue(), limiter),
	}
	for name, q := range queues {
		q.Add("k")
		q.Add(42)
		q.Add("k")
		if q.Len() != 2 {
			t.Errorf("%s: Len() = %d, want 2", name, q.Len())
		}
		for _, want := range []any{"k", 42} {
			if got, _ := q.Get(); got != want {
				t.Errorf("%s: Get() = %v, want %v", name, got, want)
			}
			q.Done(want)
		}
		q.ShutDown()
		if _, shutdown := q.Get(); !shutdown {
			t.Errorf("%s: Get after ShutDown did not report shutdown", name)
		}
	}
}

func TestUntypedRateLimiters(t *testing.T) {
	fs := NewItemFastSlowRateLimiter(time.Millisecond, time.Second, 1)
	capped := NewWithMaxWaitRateLimiter(NewItemExponentialFailureRateLimiter(time.Second, time.Hour), 2*time.Second)
	r := NewMaxOfRateLimiter(fs, capped)
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 2 * time.Second} {
		if got := r.When("x"); got != want {
			t.Fatalf("attempt %d: When = %v, want %v", i+1, got, want)
		}
	}
	var _ *ItemExponentialFailureRateLimiter = capped.(*WithMaxWaitRateLimiter).limiter.(*ItemExponentialFailureRateLimiter)
	var _ *ItemFastSlowRateLimiter = fs.(*ItemFastSlowRateLimiter)
	var _ *MaxOfRateLimiter = r.(*MaxOfRateLimiter)
	var _ RateLimiter = &BucketRateLimiter{}
}
