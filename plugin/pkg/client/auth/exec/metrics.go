package exec

import (
	"errors"
	"io/fs"
	"os/exec"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/metrics"
)

// Call statuses reported to metrics.ExecPluginCalls, and policy decisions
// reported to metrics.ExecPluginPolicyCalls.
const (
	statusNoError         = "no_error"
	statusExecutionError  = "plugin_execution_error"
	statusNotFound        = "plugin_not_found_error"
	statusClientInternal  = "client_internal_error"
	exitCodeSuccess       = 0
	exitCodeFailure       = 1
	policyDecisionAllowed = "allowed"
	policyDecisionDenied  = "denied"
)

// recordCall reports the outcome of one plugin run.
func recordCall(err error) {
	var exitErr *exec.ExitError
	var execErr *exec.Error
	var pathErr *fs.PathError
	switch {
	case err == nil:
		metrics.ExecPluginCalls.Increment(exitCodeSuccess, statusNoError)
	case errors.As(err, &exitErr):
		metrics.ExecPluginCalls.Increment(exitErr.ExitCode(), statusExecutionError)
	case errors.As(err, &execErr), errors.As(err, &pathErr):
		metrics.ExecPluginCalls.Increment(exitCodeFailure, statusNotFound)
	default:
		klog.V(2).InfoS("unexpected exec plugin return error type", "err", err)
		metrics.ExecPluginCalls.Increment(exitCodeFailure, statusClientInternal)
	}
}

// recordPolicyDecision reports whether the plugin policy let a run happen.
func recordPolicyDecision(err error) {
	if err != nil {
		metrics.ExecPluginPolicyCalls.Increment(policyDecisionDenied)
		return
	}
	metrics.ExecPluginPolicyCalls.Increment(policyDecisionAllowed)
}

// certExpiries publishes the earliest expiry among the client certificates
// currently held by all Authenticators of the process.
var certExpiries = &expiryTracker{
	byAuth:  map[*Authenticator]time.Time{},
	publish: func(t *time.Time) { metrics.ClientCertExpiry.Set(t) },
}

type expiryTracker struct {
	mu      sync.Mutex // guards byAuth and serializes publish
	byAuth  map[*Authenticator]time.Time
	publish func(*time.Time)
}

// set records a's certificate expiry (zero: no certificate) and publishes
// the earliest known expiry, or nil when no Authenticator holds one.
func (t *expiryTracker) set(a *Authenticator, expiry time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byAuth[a] = expiry
	var earliest time.Time
	for _, e := range t.byAuth {
		if !e.IsZero() && (earliest.IsZero() || e.Before(earliest)) {
			earliest = e
		}
	}
	if earliest.IsZero() {
		t.publish(nil)
		return
	}
	t.publish(&earliest)
}
