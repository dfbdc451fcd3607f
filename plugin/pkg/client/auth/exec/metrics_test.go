package exec

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
	"github.com/kubeclient/client-go/tools/metrics"
)

type recordedCalls struct {
	mu    sync.Mutex
	calls []string
}

func (r *recordedCalls) Increment(exitCode int, status string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf("%d/%s", exitCode, status))
}

type recordedPolicy struct {
	mu        sync.Mutex
	decisions []string
}

func (r *recordedPolicy) Increment(status string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.decisions = append(r.decisions, status)
}

// Not parallel: it swaps the process-wide metrics.
func TestCallMetrics(t *testing.T) {
	calls, policy := &recordedCalls{}, &recordedPolicy{}
	oldCalls, oldPolicy := metrics.ExecPluginCalls, metrics.ExecPluginPolicyCalls
	metrics.ExecPluginCalls, metrics.ExecPluginPolicyCalls = calls, policy
	defer func() { metrics.ExecPluginCalls, metrics.ExecPluginPolicyCalls = oldCalls, oldPolicy }()

	missing := &api.ExecConfig{Command: filepath.Join(t.TempDir(), "missing"), APIVersion: v1APIVersion, InteractiveMode: api.NeverExecInteractiveMode}
	denied := pluginConfig(t, "token", v1APIVersion)
	denied.PluginPolicy = api.PluginPolicy{PolicyType: api.PluginPolicyDenyAll}
	for _, c := range []*api.ExecConfig{
		pluginConfig(t, "token", v1APIVersion),
		pluginConfig(t, "fail", v1APIVersion),
		missing,
		denied,
	} {
		a, _, _ := newTestAuthenticator(t, c, nil)
		_, _ = a.getCreds(context.Background())
	}
	if got, want := fmt.Sprint(calls.calls), "[0/no_error 3/plugin_execution_error 1/plugin_not_found_error]"; got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(policy.decisions), "[allowed allowed allowed denied]"; got != want {
		t.Errorf("policy decisions = %s, want %s", got, want)
	}
}
