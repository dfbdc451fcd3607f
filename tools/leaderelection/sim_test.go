package leaderelection

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	testingclock "k8s.io/utils/clock/testing"

	rl "github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
)

// The simulation runs real LeaderElectors against a leaseServer. Every
// elector has its own fake clock; the simulation advances a global time in
// steps of simStep, steps each elector's clock by simStep times its rate,
// and then waits until every elector is parked on its clock again (or has
// returned from Run). Nothing depends on wall-clock sleeps.

const (
	simLease   = 15 * time.Second
	simRenew   = 10 * time.Second
	simRetry   = 2 * time.Second
	simStep    = 100 * time.Millisecond
	simNS      = "kube-system"
	simLockKey = "sim-lock"
)

type simElector struct {
	id     string
	clock  *testingclock.FakeClock
	rate   float64
	cut    atomic.Bool
	le     *LeaderElector
	cancel context.CancelFunc
	done   chan struct{}
}

// belief is an interval of global time during which one elector held
// leadership; end < 0 means it still does.
type belief struct {
	id         string
	start, end time.Duration
}

type simulation struct {
	t   *testing.T
	srv *leaseServer

	mu         sync.Mutex // guards everything below
	now        time.Duration
	electors   map[string]*simElector
	beliefs    []*belief
	active     map[string]*belief
	violations []string
	writes     int
	lastWrite  map[string]time.Duration // holder -> global time of its last write
	takeovers  []takeover
}

type takeover struct {
	from, to string
	at       time.Duration
}

func newSimulation(t *testing.T) *simulation {
	s := &simulation{
		t:         t,
		srv:       newLeaseServer(t),
		electors:  map[string]*simElector{},
		active:    map[string]*belief{},
		lastWrite: map[string]time.Duration{},
	}
	s.srv.onWrite = s.observeWrite
	return s
}

func (s *simulation) violatef(format string, args ...any) {
	s.violations = append(s.violations, fmt.Sprintf("t=%v: ", s.now)+fmt.Sprintf(format, args...))
}

// observeWrite checks every accepted Lease write; it runs under the
// server's lock, so writes are seen in their true order.
func (s *simulation) observeWrite(old, cur *coordinationv1.Lease) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	rec := rl.LeaseSpecToLeaderElectionRecord(&cur.Spec)
	prev := &rl.LeaderElectionRecord{}
	if old != nil {
		prev = rl.LeaseSpecToLeaderElectionRecord(&old.Spec)
	}
	holder := rec.HolderIdentity
	if holder != "" {
		s.lastWrite[holder] = s.now
	}
	if holder == "" || holder == prev.HolderIdentity {
		if holder == "" && rec.LeaseDurationSeconds != 1 {
			s.violatef("released lease has duration %ds, want 1s", rec.LeaseDurationSeconds)
		}
		return
	}
	// A new holder: nobody else may still believe it leads.
	for id := range s.active {
		if id != holder {
			s.violatef("%s acquired the lease while %s still leads", holder, id)
		}
	}
	if old != nil && rec.LeaderTransitions != prev.LeaderTransitions+1 {
		s.violatef("leaderTransitions went %d -> %d on a change of holder", prev.LeaderTransitions, rec.LeaderTransitions)
	}
	if _, ok := s.active[holder]; !ok {
		b := &belief{id: holder, start: s.now, end: -1}
		s.active[holder] = b
		s.beliefs = append(s.beliefs, b)
	}
	s.takeovers = append(s.takeovers, takeover{from: prev.HolderIdentity, to: holder, at: s.now})
}

func (s *simulation) stopped(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.active[id]; ok {
		b.end = s.now
		delete(s.active, id)
	}
}

// start launches an elector with its own clock, offset from the others by
// skew and running at rate.
func (s *simulation) start(id string, skew time.Duration, rate float64) *simElector {
	s.t.Helper()
	e := &simElector{
		id:    id,
		clock: testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(skew + time.Duration(float64(s.current())*rate))),
		rate:  rate,
		done:  make(chan struct{}),
	}
	lock, err := rl.New(rl.LeasesResourceLock, simNS, simLockKey, nil, s.srv.client(s.t, &e.cut).CoordinationV1(), rl.ResourceLockConfig{Identity: id})
	if err != nil {
		s.t.Fatal(err)
	}
	le, err := NewLeaderElector(LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   simLease,
		RenewDeadline:   simRenew,
		RetryPeriod:     simRetry,
		ReleaseOnCancel: true,
		Name:            simLockKey,
		Callbacks: LeaderCallbacks{
			OnStartedLeading: func(context.Context) {},
			OnStoppedLeading: func() { s.stopped(id) },
		},
	})
	if err != nil {
		s.t.Fatal(err)
	}
	le.clock = e.clock
	e.le = le
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	go func() {
		defer close(e.done)
		le.Run(ctx)
	}()
	s.mu.Lock()
	s.electors[id] = e
	s.mu.Unlock()
	s.waitQuiet()
	return e
}

func (s *simulation) current() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

func exited(e *simElector) bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// waitQuiet waits until every elector is parked on its clock or has
// returned from Run.
func (s *simulation) waitQuiet() {
	s.t.Helper()
	s.mu.Lock()
	electors := make([]*simElector, 0, len(s.electors))
	for _, e := range s.electors {
		electors = append(electors, e)
	}
	s.mu.Unlock()
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(50 * time.Microsecond)
	defer tick.Stop()
	for _, e := range electors {
		for !exited(e) && e.clock.Waiters() == 0 {
			if time.Now().After(deadline) {
				s.t.Fatalf("elector %s neither parked on its clock nor returned", e.id)
			}
			select {
			case <-e.done:
			case <-tick.C:
			}
		}
	}
}

// advance moves global time forward by d in simulation steps.
func (s *simulation) advance(d time.Duration) {
	s.t.Helper()
	for end := s.current() + d; s.current() < end; {
		s.mu.Lock()
		s.now += simStep
		electors := make([]*simElector, 0, len(s.electors))
		for _, e := range s.electors {
			electors = append(electors, e)
		}
		s.mu.Unlock()
		for _, e := range electors {
			if !exited(e) {
				e.clock.Step(time.Duration(float64(simStep) * e.rate))
			}
		}
		s.waitQuiet()
	}
}

// advanceUntil advances until cond holds or limit passes; it returns the
// global time at which cond first held.
func (s *simulation) advanceUntil(limit time.Duration, cond func() bool) (time.Duration, bool) {
	s.t.Helper()
	for end := s.current() + limit; s.current() <= end; {
		if cond() {
			return s.current(), true
		}
		s.advance(simStep)
	}
	return s.current(), false
}

// leader returns the single elector that currently leads, or "".
func (s *simulation) leader() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.active) != 1 {
		return ""
	}
	for id := range s.active {
		return id
	}
	return ""
}

// kill stops an elector without letting it release: it is cut off from the
// server first, then its context is cancelled.
func (s *simulation) kill(id string) {
	s.t.Helper()
	e := s.elector(id)
	e.cut.Store(true)
	e.cancel()
	<-e.done
	s.waitQuiet()
}

// shutdown cancels an elector's context; with ReleaseOnCancel it releases.
func (s *simulation) shutdown(id string) {
	s.t.Helper()
	e := s.elector(id)
	e.cancel()
	<-e.done
	s.waitQuiet()
}

func (s *simulation) elector(id string) *simElector {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.electors[id]
}

func (s *simulation) stopAll() {
	s.mu.Lock()
	electors := s.electors
	s.mu.Unlock()
	for _, e := range electors {
		e.cancel()
		<-e.done
	}
}

// checkBeliefs verifies that no two leadership intervals overlap.
func (s *simulation) checkBeliefs() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.violations {
		s.t.Error(v)
	}
	for i, a := range s.beliefs {
		for _, b := range s.beliefs[i+1:] {
			aEnd, bEnd := a.end, b.end
			if aEnd < 0 {
				aEnd = s.now + 1
			}
			if bEnd < 0 {
				bEnd = s.now + 1
			}
			if a.start < bEnd && b.start < aEnd {
				s.t.Errorf("%s led during [%v,%v] and %s during [%v,%v]: overlap", a.id, a.start, a.end, b.id, b.start, b.end)
			}
		}
	}
}
