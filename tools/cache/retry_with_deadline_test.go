package cache

import (
	"errors"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

func TestRetryWithDeadlineWindow(t *testing.T) {
	retryable := errors.New("retryable")
	other := errors.New("other")
	isRetryable := func(err error) bool { return errors.Is(err, retryable) }
	type step struct {
		advance time.Duration
		err     error
		want    bool
	}
	tests := []struct {
		name  string
		max   time.Duration
		steps []step
	}{
		{
			name:  "zero duration never retries",
			max:   0,
			steps: []step{{err: retryable, want: false}},
		},
		{
			name:  "nothing recorded",
			max:   time.Minute,
			steps: []step{{err: nil, want: false}, {err: other, want: false}},
		},
		{
			name: "window measured from the first error",
			max:  2 * time.Second,
			steps: []step{
				{advance: time.Second, err: retryable, want: true},
				{advance: time.Second, err: retryable, want: true},
				{advance: time.Second, err: retryable, want: true},
				{advance: time.Second, err: retryable, want: false},
			},
		},
		{
			name: "other errors and successes keep the window open",
			max:  2 * time.Second,
			steps: []step{
				{err: retryable, want: true},
				{advance: time.Second, err: other, want: true},
				{err: nil, want: true},
				{advance: 2 * time.Second, err: nil, want: false},
			},
		},
		{
			name: "quiet period restarts the window",
			max:  2 * time.Second,
			steps: []step{
				{err: retryable, want: true},
				{advance: 10 * time.Second, err: retryable, want: true},
			},
		},
		{
			name: "closed window is cleared",
			max:  time.Second,
			steps: []step{
				{err: retryable, want: true},
				{advance: 2 * time.Second, err: other, want: false},
				{err: other, want: false},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(time.Now())
			r := NewRetryWithDeadline(tc.max, 5*time.Second, isRetryable, clk)
			for i, s := range tc.steps {
				clk.Step(s.advance)
				r.After(s.err)
				if got := r.ShouldRetry(); got != s.want {
					t.Fatalf("step %d (%v): ShouldRetry = %v, want %v", i, s.err, got, s.want)
				}
			}
		})
	}
}

func TestRetryWithDeadline(t *testing.T) {
	internal := apierrors.NewInternalError(errors.New("boom"))
	r := NewRetryWithDeadline(time.Hour, time.Minute, apierrors.IsInternalError, clock.RealClock{})
	r.After(internal)
	if !r.ShouldRetry() {
		t.Error("internal error within the deadline should be retried")
	}
	// Other errors and successes are not recorded: the window stays open.
	r.After(errors.New("other"))
	r.After(nil)
	if !r.ShouldRetry() {
		t.Error("window closed by an error that is not retryable")
	}
	if NewRetryWithDeadline(0, time.Minute, nil, clock.RealClock{}).ShouldRetry() {
		t.Error("zero duration retries")
	}
}
