package flowcontrol

import (
	"sync"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

func TestBackoffNextDoublesUpToMax(t *testing.T) {
	tests := []struct {
		name         string
		initial, max time.Duration
		want         []time.Duration
	}{
		{name: "doubling", initial: time.Second, max: 10 * time.Second,
			want: []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}},
		{name: "initial equals max", initial: 5 * time.Second, max: 5 * time.Second,
			want: []time.Duration{5 * time.Second, 5 * time.Second}},
		{name: "zero initial stays zero", initial: 0, max: time.Second,
			want: []time.Duration{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(epoch)
			b := NewFakeBackOff(tt.initial, tt.max, clk)
			if got := b.Get("k"); got != 0 {
				t.Fatalf("Get before Next = %v, want 0", got)
			}
			for i, want := range tt.want {
				b.Next("k", clk.Now())
				if got := b.Get("k"); got != want {
					t.Errorf("after Next %d: Get = %v, want %v", i+1, got, want)
				}
				clk.Step(time.Millisecond)
			}
			if got := b.Get("other"); got != 0 {
				t.Errorf("unrelated key has delay %v", got)
			}
		})
	}
}

func TestBackoffRestartsAfterExpiry(t *testing.T) {
	clk := testingclock.NewFakeClock(epoch)
	b := NewFakeBackOff(time.Second, 4*time.Second, clk)
	for i := 0; i < 3; i++ {
		b.Next("k", clk.Now())
	}
	if got := b.Get("k"); got != 4*time.Second {
		t.Fatalf("Get = %v, want 4s", got)
	}
	// Exactly 2*max after the last update the entry is not yet expired.
	clk.Step(8 * time.Second)
	b.Next("k", clk.Now())
	if got := b.Get("k"); got != 4*time.Second {
		t.Fatalf("Get = %v at exactly 2*max, want 4s (capped, not restarted)", got)
	}
	clk.Step(8*time.Second + time.Nanosecond)
	b.Next("k", clk.Now())
	if got := b.Get("k"); got != time.Second {
		t.Errorf("Get = %v after expiry, want the initial 1s", got)
	}
}

func TestBackoffIsInBackOffSince(t *testing.T) {
	tests := []struct {
		name            string
		nexts           int           // Next calls at the start time
		eventAgo        time.Duration // how long before now the event happened
		advance         time.Duration // clock movement after the Next calls
		wantSince       bool
		wantSinceUpdate bool
	}{
		{name: "unknown key", nexts: 0, wantSince: false, wantSinceUpdate: false},
		{name: "event now, inside window", nexts: 1, advance: 500 * time.Millisecond, eventAgo: 0, wantSince: true, wantSinceUpdate: true},
		{name: "event older than window", nexts: 1, advance: 2 * time.Second, eventAgo: 1500 * time.Millisecond, wantSince: false, wantSinceUpdate: true},
		{name: "window grew", nexts: 2, advance: 1500 * time.Millisecond, eventAgo: 1500 * time.Millisecond, wantSince: true, wantSinceUpdate: true},
		{name: "event a full window after update", nexts: 1, advance: time.Second, eventAgo: 0, wantSince: true, wantSinceUpdate: false},
		{name: "expired entry", nexts: 1, advance: time.Minute, eventAgo: 0, wantSince: false, wantSinceUpdate: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := testingclock.NewFakeClock(epoch)
			b := NewFakeBackOff(time.Second, 10*time.Second, clk)
			for i := 0; i < tt.nexts; i++ {
				b.Next("k", clk.Now())
			}
			clk.Step(tt.advance)
			event := clk.Now().Add(-tt.eventAgo)
			if got := b.IsInBackOffSince("k", event); got != tt.wantSince {
				t.Errorf("IsInBackOffSince = %v, want %v", got, tt.wantSince)
			}
			if got := b.IsInBackOffSinceUpdate("k", event); got != tt.wantSinceUpdate {
				t.Errorf("IsInBackOffSinceUpdate = %v, want %v", got, tt.wantSinceUpdate)
			}
		})
	}
}

func TestBackoffGCAndDelete(t *testing.T) {
	clk := testingclock.NewFakeClock(epoch)
	b := NewFakeBackOff(time.Second, 5*time.Second, clk)
	b.Next("old", clk.Now())
	clk.Step(6 * time.Second)
	b.Next("recent", clk.Now())
	b.Next("deleted", clk.Now())
	b.Next("reset", clk.Now())
	clk.Step(5 * time.Second) // old: 11s > 10s expired; others: 5s
	b.GC()
	b.DeleteEntry("deleted")
	b.Reset("reset")

	for key, want := range map[string]time.Duration{"old": 0, "recent": time.Second, "deleted": 0, "reset": 0} {
		if got := b.Get(key); got != want {
			t.Errorf("Get(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestBackoffHasExpiredFunc(t *testing.T) {
	clk := testingclock.NewFakeClock(epoch)
	b := NewFakeBackOff(time.Second, time.Hour, clk)
	var gotMax time.Duration
	b.HasExpiredFunc = func(eventTime, lastUpdate time.Time, maxDuration time.Duration) bool {
		gotMax = maxDuration
		return eventTime.Sub(lastUpdate) >= time.Minute
	}
	b.Next("k", clk.Now())
	b.Next("k", clk.Now())
	if got := b.Get("k"); got != 2*time.Second {
		t.Fatalf("Get = %v, want 2s", got)
	}
	if gotMax != time.Hour {
		t.Errorf("HasExpiredFunc got maxDuration %v, want 1h", gotMax)
	}
	clk.Step(time.Minute)
	if b.IsInBackOffSince("k", clk.Now()) {
		t.Error("IsInBackOffSince true for an entry expired by HasExpiredFunc")
	}
	b.GC()
	if got := b.Get("k"); got != 0 {
		t.Errorf("GC kept an entry expired by HasExpiredFunc: %v", got)
	}
}

func TestBackoffJitterStaysInRange(t *testing.T) {
	tests := []struct {
		name   string
		factor float64
	}{
		{name: "no jitter", factor: 0},
		{name: "half", factor: 0.5},
		{name: "full", factor: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const initial, max = time.Second, time.Hour
			clk := testingclock.NewFakeClock(epoch)
			b := NewFakeBackOffWithJitter(initial, max, clk, tt.factor)
			prev := time.Duration(0)
			for i := 0; i < 8; i++ {
				b.Next("k", clk.Now())
				got := b.Get("k")
				lo, hi := initial, initial+time.Duration(tt.factor*float64(initial))
				if i > 0 {
					lo, hi = 2*prev, 2*prev+time.Duration(tt.factor*float64(prev))
				}
				hi = min(hi, max)
				if got < min(lo, max) || got > hi {
					t.Fatalf("step %d: delay %v outside [%v, %v]", i, got, lo, hi)
				}
				if tt.factor == 0 && got != min(lo, max) {
					t.Fatalf("step %d: delay %v with no jitter, want %v", i, got, lo)
				}
				prev = got
			}
		})
	}
}

func TestRealClockBackoffConstructors(t *testing.T) {
	for _, b := range []*Backoff{NewBackOff(time.Second, time.Minute), NewBackOffWithJitter(time.Second, time.Minute, 0.1)} {
		b.Next("k", time.Now())
		if got := b.Get("k"); got < time.Second || got > 1100*time.Millisecond {
			t.Errorf("first delay %v, want within [1s, 1.1s]", got)
		}
		if !b.IsInBackOffSince("k", time.Now()) {
			t.Error("fresh entry not in backoff")
		}
	}
}

func TestBackoffConcurrentUse(t *testing.T) {
	clk := testingclock.NewFakeClock(epoch)
	b := NewFakeBackOffWithJitter(time.Millisecond, time.Second, clk, 0.2)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				id := string(rune('a' + i%5))
				b.Next(id, clk.Now())
				b.IsInBackOffSince(id, clk.Now())
				b.Get(id)
				if i%17 == 0 {
					b.GC()
					b.Reset(id)
				}
			}
		}()
	}
	wg.Wait()
}
