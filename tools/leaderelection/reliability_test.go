package leaderelection

import (
	"fmt"
	"testing"
	"time"
)

func (s *simulation) lastWriteOf(id string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastWrite[id]
}

func (s *simulation) takeoverCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.takeovers)
}

// maxPoll is the longest wait between two acquire attempts.
const maxPoll = time.Duration(float64(simRetry) * (1 + JitterFactor))

// takeoverBound is the longest a follower may need, after the holder's last
// write, to take over a lease that stopped being renewed: it sees the last
// write at most one poll late, then tries again when LeaseDuration has
// passed on its own clock since (not at its next poll, which could add
// another poll), within one simulation step.
const takeoverBound = simLease + maxPoll + 2*simStep

// TestReliabilityThreeElectors runs three electors against one Lease on a
// server that enforces resourceVersion conflicts. One elector's clock is an
// hour ahead and runs 10% fast; one is three minutes behind. The leader is
// killed, the next leader is partitioned from the server and later comes
// back, and the last leader shuts down gracefully. An observer checks every
// Lease write; the test proves that no two electors ever led at once and
// that leadership moved within the documented bounds.
func TestReliabilityThreeElectors(t *testing.T) {
	// Acquire retries are jittered at random: run several elections.
	for i := range 5 {
		t.Run(fmt.Sprintf("run%d", i), runThreeElectors)
	}
}

func runThreeElectors(t *testing.T) {
	s := newSimulation(t)
	defer s.stopAll()

	s.start("a", 0, 1)
	s.start("b", time.Hour, 1.1)
	s.start("c", -3*time.Minute, 1)

	// Someone wins at once: the Lease does not exist yet.
	if _, ok := s.advanceUntil(maxPoll+simStep, func() bool { return s.leader() != "" }); !ok {
		t.Fatalf("no leader elected within %v", maxPoll)
	}
	first := s.leader()
	s.advance(40 * time.Second)
	if got := s.leader(); got != first {
		t.Fatalf("leadership moved from %s to %q without any failure", first, got)
	}
	if n := s.takeoverCount(); n != 1 {
		t.Fatalf("%d changes of holder while the first leader was healthy, want 1", n)
	}

	// Kill the leader without release.
	last := s.lastWriteOf(first)
	s.kill(first)
	at, ok := s.advanceUntil(takeoverBound, func() bool { l := s.leader(); return l != "" && l != first })
	if !ok {
		t.Fatalf("nobody took over within %v of killing %s", takeoverBound, first)
	}
	second := s.leader()
	t.Logf("killed %s: %s took over %v after its last renewal (bound %v)", first, second, at-last, takeoverBound)
	if at-last < simLease/2 {
		t.Errorf("%s took over %v after the last renewal, before the lease could have expired", second, at-last)
	}
	// Keep three candidates.
	s.start("d", 30*time.Second, 1)
	s.advance(30 * time.Second)
	if got := s.leader(); got != second {
		t.Fatalf("leader changed from %s to %q with no failure", second, got)
	}

	// Partition the leader: it must step down on its own, and someone else
	// takes over only after that.
	partitioned := s.elector(second)
	last = s.lastWriteOf(second)
	partitioned.cut.Store(true)
	stepDownBound := time.Duration(float64(simRetry+simRenew)/partitioned.rate) + simStep
	stepDown, ok := s.advanceUntil(stepDownBound+simRetry, func() bool { return s.leader() != second })
	if !ok {
		t.Fatalf("partitioned leader %s still leads %v after its last renewal", second, stepDown-last)
	}
	t.Logf("partitioned %s stepped down %v after its last renewal (bound %v)", second, stepDown-last, stepDownBound)
	if stepDown-last > stepDownBound {
		t.Errorf("partitioned leader kept leading for %v, more than RetryPeriod+RenewDeadline (%v)", stepDown-last, stepDownBound)
	}
	at, ok = s.advanceUntil(takeoverBound, func() bool { l := s.leader(); return l != "" && l != second })
	if !ok {
		t.Fatalf("nobody took over within %v of partitioning %s", takeoverBound, second)
	}
	third := s.leader()
	t.Logf("%s took over %v after %s's last renewal (bound %v)", third, at-last, second, takeoverBound)
	if at-last > takeoverBound {
		t.Errorf("takeover took %v, more than %v", at-last, takeoverBound)
	}

	// Heal the partition and restart the deposed process with the same
	// identity: it must follow, not lead.
	<-partitioned.done
	s.start(second, 2*time.Minute, 1)
	changes := s.takeoverCount()
	s.advance(60 * time.Second)
	if got := s.leader(); got != third || s.takeoverCount() != changes {
		t.Fatalf("after healing, leader is %q (want %s), %d new changes of holder", got, third, s.takeoverCount()-changes)
	}

	// Graceful shutdown releases the lease: a successor takes over within
	// one poll, without waiting for expiry.
	s.shutdown(third)
	released := s.current()
	lease := s.srv.get(simNS, simLockKey)
	if lease == nil || *lease.Spec.HolderIdentity != "" || *lease.Spec.LeaseDurationSeconds != 1 {
		t.Fatalf("after release the lease is %+v, want no holder and a 1s duration", lease)
	}
	at, ok = s.advanceUntil(maxPoll+simStep, func() bool { return s.leader() != "" })
	if !ok {
		t.Fatalf("nobody took over within %v of %s releasing the lease", maxPoll, third)
	}
	t.Logf("%s released; %s took over %v later", third, s.leader(), at-released)

	s.advance(10 * time.Second)
	s.checkBeliefs()
	if s.srv.requests.Load() == 0 {
		t.Fatal("the server saw no requests")
	}
}
