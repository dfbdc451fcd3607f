package leaderelection

import (
	"context"
	"errors"
	"time"

	"k8s.io/utils/clock"

	rl "github.com/kubeclient/client-go/tools/leaderelection/resourcelock"
)

const (
	// JitterFactor scales the random extra wait added to RetryPeriod while
	// a candidate tries to acquire, so that candidates do not retry in step.
	JitterFactor = 1.2
)

// LeaderElectionConfig configures a LeaderElector.
type LeaderElectionConfig struct {
	// Lock is the lock object candidates compete for.
	Lock rl.Interface

	// LeaseDuration is how long a candidate must see the stored record stay
	// unchanged, measured on its own clock, before it may take the lock
	// over. Keep it as short as clock-rate skew allows: a fresh set of
	// candidates facing a stale record waits this long.
	//
	// Core clients default this value to 15 seconds.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps retrying a renewal before
	// it gives leadership up.
	//
	// Core clients default this value to 10 seconds.
	RenewDeadline time.Duration
	// RetryPeriod is the wait between attempts to acquire or renew.
	//
	// Core clients default this value to 2 seconds.
	RetryPeriod time.Duration

	// Callbacks are invoked on leadership changes.
	Callbacks LeaderCallbacks

	// WatchDog, when set, reports the elector's health; it may be nil.
	WatchDog *HealthzAdaptor

	// ReleaseOnCancel makes the leader clear the lock when its context is
	// cancelled, so that a successor can take over at once. Only set it
	// if all work guarded by the lease has finished before the context is
	// cancelled.
	ReleaseOnCancel bool

	// Name names the lock in logs, metrics and health messages.
	Name string

	// Coordinated makes the elector follow an election run by the API server
	// (coordinated leader election, alpha): it only renews a lease the server
	// assigned to it and never takes an expired one.
	Coordinated bool
}

// LeaderCallbacks are invoked as leadership changes. OnStartedLeading and
// OnNewLeader run in their own goroutines.
type LeaderCallbacks struct {
	// OnStartedLeading runs when this elector becomes leader; its context
	// is cancelled when leadership ends.
	OnStartedLeading func(context.Context)
	// OnStoppedLeading runs when Run returns, whether or not this elector
	// ever led.
	OnStoppedLeading func()
	// OnNewLeader runs whenever the observed leader changes, including the
	// first leader observed.
	OnNewLeader func(identity string)
}

// NewLeaderElector validates lec and returns an elector for it.
func NewLeaderElector(lec LeaderElectionConfig) (*LeaderElector, error) {
	if err := lec.validate(); err != nil {
		return nil, err
	}
	le := &LeaderElector{config: lec, clock: clock.RealClock{}}
	le.metrics = globalMetricsFactory.newLeaderMetrics()
	le.metrics.leaderOff(lec.Name)
	return le, nil
}

// configRule is one requirement on a LeaderElectionConfig and the error
// that reports it broken.
type configRule struct {
	broken func(c *LeaderElectionConfig) bool
	err    string
}

// configRules are checked in order; the first broken one is reported. The
// durations must leave room for renewals (lease > renew deadline > jittered
// retry period) and be positive; both callbacks and a lock with an
// identity are required.
var configRules = []configRule{
	{func(c *LeaderElectionConfig) bool { return c.LeaseDuration <= c.RenewDeadline }, "leaseDuration must be greater than renewDeadline"},
	{func(c *LeaderElectionConfig) bool {
		return c.RenewDeadline <= time.Duration(JitterFactor*float64(c.RetryPeriod))
	}, "renewDeadline must be greater than retryPeriod*JitterFactor"},
	{func(c *LeaderElectionConfig) bool { return c.LeaseDuration < 1 }, "leaseDuration must be greater than zero"},
	{func(c *LeaderElectionConfig) bool { return c.RenewDeadline < 1 }, "renewDeadline must be greater than zero"},
	{func(c *LeaderElectionConfig) bool { return c.RetryPeriod < 1 }, "retryPeriod must be greater than zero"},
	{func(c *LeaderElectionConfig) bool { return c.Callbacks.OnStartedLeading == nil }, "OnStartedLeading callback must not be nil"},
	{func(c *LeaderElectionConfig) bool { return c.Callbacks.OnStoppedLeading == nil }, "OnStoppedLeading callback must not be nil"},
	{func(c *LeaderElectionConfig) bool { return c.Lock == nil }, "Lock must not be nil."},
	{func(c *LeaderElectionConfig) bool { return c.Lock.Identity() == "" }, "Lock identity is empty"},
}

// validate returns the error of the first broken configRule.
func (c *LeaderElectionConfig) validate() error {
	for _, rule := range configRules {
		if rule.broken(c) {
			return errors.New(rule.err)
		}
	}
	return nil
}

// RunOrDie validates lec, attaches its WatchDog and runs the elector until
// ctx ends or leadership is lost. It panics when lec is invalid.
func RunOrDie(ctx context.Context, lec LeaderElectionConfig) {
	le, err := NewLeaderElector(lec)
	if err != nil {
		panic(err)
	}
	if lec.WatchDog != nil {
		lec.WatchDog.SetLeaderElection(le)
	}
	le.Run(ctx)
}
