package leaderelection

import (
	"net/http"
	"sync"
	"time"
)

// HealthzAdaptor reports a LeaderElector's health through a healthz check.
// It can be registered before the elector exists; until SetLeaderElection is
// called it reports healthy. It reports unhealthy when this process holds
// the lease but has not renewed it for longer than the lease duration plus
// the adaptor's timeout, which signals a stuck leader to be restarted.
type HealthzAdaptor struct {
	mu      sync.Mutex // guards le
	le      *LeaderElector
	timeout time.Duration
}

// Name returns the name of the health check.
func (l *HealthzAdaptor) Name() string {
	return "leaderElection"
}

// Check returns an error when this process leads but failed to renew its
// lease in time; otherwise it returns nil.
func (l *HealthzAdaptor) Check(req *http.Request) error {
	l.mu.Lock()
	le := l.le
	l.mu.Unlock()
	if le == nil {
		return nil
	}
	return le.Check(l.timeout)
}

// SetLeaderElection attaches the elector the adaptor reports on.
func (l *HealthzAdaptor) SetLeaderElection(le *LeaderElector) {
	l.mu.Lock()
	l.le = le
	l.mu.Unlock()
}

// NewLeaderHealthzAdaptor returns an adaptor that tolerates a lease expired
// by up to timeout before it reports unhealthy.
func NewLeaderHealthzAdaptor(timeout time.Duration) *HealthzAdaptor {
	return &HealthzAdaptor{timeout: timeout}
}
