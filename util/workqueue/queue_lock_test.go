package workqueue

import (
	"runtime"
	"sync"
	"testing"
)

// TestQueueLockExcludes: goroutines that update a plain counter under
// queueLock lose no update (and -race sees no conflict).
func TestQueueLockExcludes(t *testing.T) {
	const goroutines, rounds = 8, 2000
	var l queueLock
	counter := 0
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range rounds {
				l.Lock()
				counter++
				l.Unlock()
			}
		})
	}
	wg.Wait()
	if counter != goroutines*rounds {
		t.Fatalf("counter = %d, want %d", counter, goroutines*rounds)
	}
}

// TestQueueLockBlocksWhileHeld: a Lock that finds the lock held past its
// yields blocks until Unlock, then gets it.
func TestQueueLockBlocksWhileHeld(t *testing.T) {
	var l queueLock
	l.Lock()
	got := make(chan struct{})
	go func() {
		l.Lock()
		close(got)
		l.Unlock()
	}()
	for range 100 {
		select {
		case <-got:
			t.Fatal("Lock returned while the lock was held")
		default:
		}
		runtime.Gosched() // let the other goroutine use up its yields and block
	}
	l.Unlock()
	<-got
}

// TestQueuesWithMetricsBlockAtOnce: a queue that records metrics takes its
// lock as a plain mutex does; one without metrics yields first.
func TestQueuesWithMetricsBlockAtOnce(t *testing.T) {
	tests := []struct {
		name   string
		config TypedQueueConfig[string]
		want   bool
	}{
		{"unnamed", TypedQueueConfig[string]{}, false},
		{"named, discarding provider", TypedQueueConfig[string]{Name: "q", MetricsProvider: discardProvider{}}, false},
		{"named, with metrics", TypedQueueConfig[string]{Name: "q", MetricsProvider: newRecordingProvider()}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := NewTypedWithConfig(tc.config)
			defer q.ShutDown()
			if q.mu.blockAtOnce != tc.want {
				t.Errorf("blockAtOnce %v, want %v", q.mu.blockAtOnce, tc.want)
			}
		})
	}
}
