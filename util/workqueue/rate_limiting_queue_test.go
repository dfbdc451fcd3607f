package workqueue

import (
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

func TestRateLimitingQueue(t *testing.T) {
	c := testingclock.NewFakeClock(epoch)
	limiter := NewTypedItemExponentialFailureRateLimiter[string](time.Second, time.Minute)
	q := NewTypedRateLimitingQueueWithConfig(limiter, TypedRateLimitingQueueConfig[string]{Clock: c})
	defer q.ShutDown()

	q.AddRateLimited("a") // 1s
	q.AddRateLimited("a") // 2s, but the 1s entry is earlier and wins
	q.AddRateLimited("b") // 1s
	if got := q.NumRequeues("a"); got != 2 {
		t.Fatalf("NumRequeues(a) = %d, want 2", got)
	}
	if q.Len() != 0 {
		t.Fatal("rate-limited items were added without delay")
	}
	c.Step(time.Second)
	got := getN(t, q, 2)
	if got[0] != "a" || got[1] != "b" {
		t.Fatalf("processed %q, want [a b]", got)
	}

	q.Forget("a")
	if got := q.NumRequeues("a"); got != 0 {
		t.Fatalf("NumRequeues(a) after Forget = %d", got)
	}
	q.AddRateLimited("a") // back to 1s
	q.AddRateLimited("b") // third failure: 4s
	c.Step(time.Second)
	if got := getN(t, q, 1); got[0] != "a" {
		t.Fatalf("got %q, want a after its counter was reset", got[0])
	}
	if q.Len() != 0 {
		t.Fatal("b released before its 4s backoff")
	}
	c.Step(3 * time.Second)
	if got := getN(t, q, 1); got[0] != "b" {
		t.Fatalf("got %q, want b", got[0])
	}
}

func TestRateLimitingQueueCustomDelayingQueue(t *testing.T) {
	c := testingclock.NewFakeClock(epoch)
	dq := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[int]{Clock: c})
	q := NewTypedRateLimitingQueueWithConfig(NewTypedItemFastSlowRateLimiter[int](time.Second, time.Hour, 1),
		TypedRateLimitingQueueConfig[int]{DelayingQueue: dq})
	defer q.ShutDown()
	q.AddRateLimited(1)
	c.Step(time.Second)
	if item, _ := dq.Get(); item != 1 {
		t.Fatalf("custom delaying queue got %d, want 1", item)
	}
}
