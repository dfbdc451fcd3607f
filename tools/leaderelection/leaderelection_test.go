package leaderelection

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"

	rl "github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
)

type identityLock struct {
	rl.Interface
	id string
}

func (l identityLock) Identity() string { return l.id }

func TestNewLeaderElectorValidation(t *testing.T) {
	valid := func() LeaderElectionConfig {
		return LeaderElectionConfig{
			Lock:          identityLock{id: "me"},
			LeaseDuration: 15 * time.Second,
			RenewDeadline: 10 * time.Second,
			RetryPeriod:   2 * time.Second,
			Callbacks: LeaderCallbacks{
				OnStartedLeading: func(context.Context) {},
				OnStoppedLeading: func() {},
			},
		}
	}
	tests := []struct {
		name   string
		mutate func(*LeaderElectionConfig)
		want   string
	}{
		{"valid", func(*LeaderElectionConfig) {}, ""},
		{"lease equals renew", func(c *LeaderElectionConfig) { c.LeaseDuration = c.RenewDeadline }, "leaseDuration must be greater than renewDeadline"},
		{"renew not above jittered retry", func(c *LeaderElectionConfig) { c.RetryPeriod = 9 * time.Second }, "renewDeadline must be greater than retryPeriod*JitterFactor"},
		{"negative durations", func(c *LeaderElectionConfig) {
			c.LeaseDuration, c.RenewDeadline, c.RetryPeriod = -1, -2, -3
		}, "leaseDuration must be greater than zero"},
		{"zero renew", func(c *LeaderElectionConfig) { c.RenewDeadline, c.RetryPeriod = 0, -1 }, "renewDeadline must be greater than zero"},
		{"zero retry", func(c *LeaderElectionConfig) { c.RetryPeriod = 0 }, "retryPeriod must be greater than zero"},
		{"no OnStartedLeading", func(c *LeaderElectionConfig) { c.Callbacks.OnStartedLeading = nil }, "OnStartedLeading callback must not be nil"},
		{"no OnStoppedLeading", func(c *LeaderElectionConfig) { c.Callbacks.OnStoppedLeading = nil }, "OnStoppedLeading callback must not be nil"},
		{"no lock", func(c *LeaderElectionConfig) { c.Lock = nil }, "Lock must not be nil."},
		{"empty identity", func(c *LeaderElectionConfig) { c.Lock = identityLock{} }, "Lock identity is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := valid()
			tt.mutate(&cfg)
			le, err := NewLeaderElector(cfg)
			if tt.want == "" {
				if err != nil || le == nil {
					t.Fatalf("NewLeaderElector() = %v, %v; want an elector", le, err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("NewLeaderElector() error = %v, want %q", err, tt.want)
			}
		})
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("RunOrDie with an invalid config did not panic")
			}
		}()
		cfg := valid()
		cfg.Lock = nil
		RunOrDie(context.Background(), cfg)
	}()
}

// singleElector runs one elector with a fake clock against srv.
type singleElector struct {
	le      *LeaderElector
	clock   *testingclock.FakeClock
	cut     atomic.Bool
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	leaders []string
	started chan struct{}
}

func runSingle(t *testing.T, srv *leaseServer, id string, watchdog *HealthzAdaptor, tweaks ...func(*LeaderElectionConfig)) *singleElector {
	t.Helper()
	e := &singleElector{clock: testingclock.NewFakeClock(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)), done: make(chan struct{}), started: make(chan struct{})}
	lock, err := rl.New(rl.LeasesResourceLock, "ns", "lock", nil, srv.client(t, &e.cut).CoordinationV1(), rl.ResourceLockConfig{Identity: id})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	cfg := LeaderElectionConfig{
		Lock: lock, LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		Name: "lock", WatchDog: watchdog,
		Callbacks: LeaderCallbacks{
			OnStartedLeading: func(context.Context) { once.Do(func() { close(e.started) }) },
			OnStoppedLeading: func() {},
			OnNewLeader: func(id string) {
				e.mu.Lock()
				e.leaders = append(e.leaders, id)
				e.mu.Unlock()
			},
		},
	}
	for _, tweak := range tweaks {
		tweak(&cfg)
	}
	e.le, err = NewLeaderElector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.le.clock = e.clock
	if watchdog != nil {
		watchdog.SetLeaderElection(e.le)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	go func() {
		defer close(e.done)
		e.le.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-e.done })
	e.park(t)
	return e
}

// park waits until the elector waits on its clock or has returned.
func (e *singleElector) park(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for e.clock.Waiters() == 0 {
		select {
		case <-e.done:
			return
		case <-time.After(50 * time.Microsecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("elector did not park")
		}
	}
}

func (e *singleElector) step(t *testing.T, total time.Duration) {
	t.Helper()
	for d := time.Duration(0); d < total; d += 100 * time.Millisecond {
		e.clock.Step(100 * time.Millisecond)
		e.park(t)
	}
}

func TestElectorLeadsRenewsAndReportsHealth(t *testing.T) {
	srv := newLeaseServer(t)
	hz := NewLeaderHealthzAdaptor(5 * time.Second)
	if hz.Name() != "leaderElection" {
		t.Errorf("Name() = %q", hz.Name())
	}
	if err := hz.Check(nil); err != nil {
		t.Errorf("Check before an elector is attached = %v, want nil", err)
	}
	e := runSingle(t, srv, "me", hz)
	<-e.started
	if !e.le.IsLeader() || e.le.GetLeader() != "me" {
		t.Fatalf("IsLeader()=%v GetLeader()=%q, want true, me", e.le.IsLeader(), e.le.GetLeader())
	}
	lease := srv.get("ns", "lock")
	if lease == nil || *lease.Spec.HolderIdentity != "me" || *lease.Spec.LeaseDurationSeconds != 15 {
		t.Fatalf("stored lease %+v, want holder me for 15s", lease)
	}
	rv := lease.ResourceVersion
	e.step(t, 5*time.Second)
	if got := srv.get("ns", "lock").ResourceVersion; got == rv {
		t.Error("the leader did not renew its lease")
	}
	if err := hz.Check(&http.Request{}); err != nil {
		t.Errorf("healthy leader: Check = %v", err)
	}

	// Cut the leader off: it gives up after RenewDeadline, but the record
	// still names it; once the lease is over by more than the adaptor's
	// timeout, health checks fail.
	e.cut.Store(true)
	e.step(t, 13*time.Second)
	select {
	case <-e.done:
	default:
		t.Fatal("Run did not return after the renew deadline passed")
	}
	e.clock.Step(10 * time.Second)
	err := hz.Check(nil)
	if err == nil || !strings.Contains(err.Error(), "failed election to renew leadership on lease lock") {
		t.Errorf("stale leader: Check = %v", err)
	}
	if err := e.le.Check(time.Hour); err != nil {
		t.Errorf("Check with a large tolerance = %v", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.leaders) == 0 || e.leaders[0] != "me" {
		t.Errorf("OnNewLeader saw %v, want [me]", e.leaders)
	}
}

// TestExpiryIsJudgedByLocalObservation pre-stores a lease held by someone
// else whose timestamps are wildly off, and checks that the elector takes
// over exactly when it has seen the record unchanged for LeaseDuration on
// its own clock: it schedules an attempt for that moment instead of waiting
// for its next jittered retry.
func TestExpiryIsJudgedByLocalObservation(t *testing.T) {
	for _, renew := range []time.Time{time.Unix(0, 0), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)} {
		t.Run(renew.Format("2006"), func(t *testing.T) {
			srv := newLeaseServer(t)
			holder, dur, trans := "other", int32(15), int32(3)
			srv.leases["ns/lock"] = &coordinationv1.Lease{
				ObjectMeta: metav1.ObjectMeta{Name: "lock", Namespace: "ns", ResourceVersion: "7"},
				Spec: coordinationv1.LeaseSpec{
					HolderIdentity: &holder, LeaseDurationSeconds: &dur, LeaseTransitions: &trans,
					RenewTime: &metav1.MicroTime{Time: renew}, AcquireTime: &metav1.MicroTime{Time: renew},
				},
			}
			e := runSingle(t, srv, "me", nil)
			if e.le.IsLeader() || e.le.GetLeader() != "other" {
				t.Fatalf("IsLeader()=%v GetLeader()=%q, want false, other", e.le.IsLeader(), e.le.GetLeader())
			}
			e.step(t, 14*time.Second)
			if got := *srv.get("ns", "lock").Spec.HolderIdentity; got != "other" {
				t.Fatalf("lease taken by %q before it expired locally", got)
			}
			e.step(t, 1*time.Second+200*time.Millisecond)
			lease := srv.get("ns", "lock")
			if *lease.Spec.HolderIdentity != "me" || *lease.Spec.LeaseTransitions != 4 {
				t.Fatalf("after local expiry lease holder=%q transitions=%d, want me, 4", *lease.Spec.HolderIdentity, *lease.Spec.LeaseTransitions)
			}
		})
	}
}

func TestReleaseOnCancel(t *testing.T) {
	srv := newLeaseServer(t)
	var cut atomic.Bool
	lock, _ := rl.New(rl.LeasesResourceLock, "ns", "lock", nil, srv.client(t, &cut).CoordinationV1(), rl.ResourceLockConfig{Identity: "me"})
	stopped := make(chan struct{})
	le, err := NewLeaderElector(LeaderElectionConfig{
		Lock: lock, LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		ReleaseOnCancel: true,
		Callbacks: LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {},
			OnStoppedLeading: func() { close(stopped) },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	fc := testingclock.NewFakeClock(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	le.clock = fc
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); le.Run(ctx) }()
	for !le.IsLeader() {
		select {
		case <-done:
			t.Fatal("Run returned before leading")
		case <-time.After(time.Millisecond):
		}
	}
	cancel()
	<-done
	<-stopped
	lease := srv.get("ns", "lock")
	if *lease.Spec.HolderIdentity != "" || *lease.Spec.LeaseDurationSeconds != 1 || *lease.Spec.LeaseTransitions != 0 {
		t.Fatalf("released lease: holder=%q duration=%d transitions=%d, want \"\", 1, 0", *lease.Spec.HolderIdentity, *lease.Spec.LeaseDurationSeconds, *lease.Spec.LeaseTransitions)
	}
	if le.IsLeader() {
		t.Error("IsLeader() is true after releasing")
	}
}

type recordingMetric struct {
	mu     sync.Mutex
	events []string
}

func (m *recordingMetric) On(name string)                { m.add("on " + name) }
func (m *recordingMetric) Off(name string)               { m.add("off " + name) }
func (m *recordingMetric) SlowpathExercised(name string) { m.add("slow " + name) }
func (m *recordingMetric) add(s string)                  { m.mu.Lock(); m.events = append(m.events, s); m.mu.Unlock() }
func (m *recordingMetric) NewLeaderMetric() LeaderMetric { return m }

// testMetrics is the process-wide provider: SetProvider only honours its
// first call, so repeated test runs share it.
var testMetrics = &recordingMetric{}

func TestMetricsProvider(t *testing.T) {
	SetProvider(testMetrics)
	SetProvider(&recordingMetric{}) // ignored: only the first call counts
	testMetrics.mu.Lock()
	testMetrics.events = nil
	testMetrics.mu.Unlock()
	srv := newLeaseServer(t)
	e := runSingle(t, srv, "me", nil)
	<-e.started
	testMetrics.mu.Lock()
	defer testMetrics.mu.Unlock()
	if len(testMetrics.events) < 2 || testMetrics.events[0] != "off lock" || testMetrics.events[1] != "on lock" {
		t.Fatalf("metric events %v, want [off lock, on lock, ...]", testMetrics.events)
	}
}

func storeLease(srv *leaseServer, holder, preferred string) {
	dur, trans := int32(15), int32(1)
	strategy := coordinationv1.OldestEmulationVersion
	now := &metav1.MicroTime{Time: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)}
	l := &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "lock", Namespace: "ns", ResourceVersion: "3"},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity: &holder, LeaseDurationSeconds: &dur, LeaseTransitions: &trans,
			RenewTime: now, AcquireTime: now, Strategy: &strategy,
		},
	}
	if preferred != "" {
		l.Spec.PreferredHolder = &preferred
	}
	srv.mu.Lock()
	srv.leases["ns/lock"] = l
	srv.mu.Unlock()
}

// TestCoordinatedElection checks the coordinated mode: the elector never
// creates or takes a lease, renews one the server assigned to it (keeping
// its strategy), and lets it lapse once another holder is preferred.
func TestCoordinatedElection(t *testing.T) {
	coordinated := func(c *LeaderElectionConfig) { c.Coordinated = true }

	srv := newLeaseServer(t)
	e := runSingle(t, srv, "me", nil, coordinated)
	e.step(t, 10*time.Second)
	if srv.get("ns", "lock") != nil {
		t.Fatal("a coordinated elector created the lease")
	}

	srv = newLeaseServer(t)
	storeLease(srv, "me", "")
	e = runSingle(t, srv, "me", nil, coordinated)
	<-e.started
	e.step(t, 5*time.Second)
	lease := srv.get("ns", "lock")
	if rv, _ := strconv.Atoi(lease.ResourceVersion); rv < 2 || *lease.Spec.HolderIdentity != "me" || lease.Spec.Strategy == nil || *lease.Spec.LeaseTransitions != 1 {
		t.Fatalf("assigned lease not renewed as is: %+v", lease.Spec)
	}
	// The server marks the end of the term: the leader stops renewing and
	// gives up after its renew deadline.
	cur := srv.get("ns", "lock")
	cur.Spec.PreferredHolder = ptrTo("next")
	srv.mu.Lock()
	srv.rv++
	cur.ResourceVersion = strconv.Itoa(srv.rv + 100)
	srv.leases["ns/lock"] = cur
	srv.mu.Unlock()
	e.step(t, 13*time.Second)
	select {
	case <-e.done:
	default:
		t.Fatal("leader kept running after its term ended")
	}

	srv = newLeaseServer(t)
	storeLease(srv, "other", "")
	e = runSingle(t, srv, "me", nil, coordinated)
	e.step(t, 40*time.Second)
	if got := *srv.get("ns", "lock").Spec.HolderIdentity; got != "other" {
		t.Fatalf("a coordinated elector took over an expired lease: holder %q", got)
	}
}

func ptrTo[T any](v T) *T { return &v }
