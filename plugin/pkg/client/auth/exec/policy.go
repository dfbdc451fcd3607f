package exec

import (
	"fmt"
	"os/exec"
	"path/filepath"

	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
)

// ValidatePluginPolicy reports whether policy is well formed: a known
// policy type, and an allowlist only (and then a non-empty one of clean,
// non-empty command paths) under the Allowlist policy.
func ValidatePluginPolicy(policy api.PluginPolicy) error {
	if policy.PolicyType == api.PluginPolicyAllowlist {
		return validateAllowlist(policy.Allowlist)
	}
	if _, known := policyChecks[policy.PolicyType]; !known {
		return fmt.Errorf("unknown plugin policy: %q", policy.PolicyType)
	}
	if policy.Allowlist != nil {
		return fmt.Errorf("misconfigured credential plugin allowlist: plugin policy is %q but allowlist is non-nil", policy.PolicyType)
	}
	return nil
}

func validateAllowlist(list []api.AllowlistEntry) error {
	switch {
	case list == nil:
		return fmt.Errorf("credential plugin policy set to %q, but allowlist is unspecified", api.PluginPolicyAllowlist)
	case len(list) == 0:
		return fmt.Errorf("credential plugin policy set to %q, but allowlist is empty; use %q policy instead", api.PluginPolicyAllowlist, api.PluginPolicyDenyAll)
	}
	for i, entry := range list {
		if entry == (api.AllowlistEntry{}) {
			return fmt.Errorf("misconfigured credential plugin allowlist: empty allowlist entry #%d", i+1)
		}
		if clean := filepath.Clean(entry.Command); clean != entry.Command {
			return fmt.Errorf("non-normalized file path: %q vs %q", entry.Command, clean)
		}
	}
	return nil
}

// policyChecks holds, for each plugin policy, the check a command must pass
// before it runs. A policy missing here is unknown and refuses every run.
var policyChecks = map[api.PolicyType]func(a *Authenticator, cmd *exec.Cmd) error{
	"":                        allowAnyPlugin,
	api.PluginPolicyAllowAll:  allowAnyPlugin,
	api.PluginPolicyDenyAll:   denyEveryPlugin,
	api.PluginPolicyAllowlist: (*Authenticator).checkAllowlistLocked,
}

func allowAnyPlugin(*Authenticator, *exec.Cmd) error { return nil }

func denyEveryPlugin(a *Authenticator, _ *exec.Cmd) error {
	return fmt.Errorf("plugin %q not allowed: policy set to %q", a.cmd, api.PluginPolicyDenyAll)
}

// checkPolicyLocked decides whether cmd may run under the plugin policy.
// Under the Allowlist policy cmd.Path is replaced by the resolved path that
// was checked, so the binary that runs is the binary that was allowed.
func (a *Authenticator) checkPolicyLocked(cmd *exec.Cmd) error {
	check, known := policyChecks[a.policy.PolicyType]
	if !known {
		return fmt.Errorf("unknown plugin policy %q", a.policy.PolicyType)
	}
	return check(a, cmd)
}

// checkAllowlistLocked admits cmd when the configured command, its path or
// the path it resolves to is on the allowlist. Entries are compared as
// written first; only when that fails are the entries with the same base
// name resolved (and remembered) for a second comparison.
func (a *Authenticator) checkAllowlistLocked(cmd *exec.Cmd) error {
	if a.allowed.HasAny(a.cmd, cmd.Path) {
		return nil
	}
	resolved, err := a.resolvePluginLocked(cmd)
	if err != nil {
		return fmt.Errorf("plugin path %q cannot be resolved for credential plugin allowlist check: %w", cmd.Path, err)
	}
	if !a.allowed.Has(resolved) {
		a.learnAllowlistLocked(filepath.Base(cmd.Path))
	}
	if !a.allowed.Has(resolved) {
		return fmt.Errorf("plugin path %q is not permitted by the credential plugin allowlist", cmd.Path)
	}
	return nil
}

// resolvePluginLocked returns the path cmd will run. exec.Command already
// looked bare names up in PATH (its result is in cmd.Path and cmd.Err);
// when it left the configured command untouched the lookup happens here,
// and a path it finds replaces cmd.Path.
func (a *Authenticator) resolvePluginLocked(cmd *exec.Cmd) (string, error) {
	if cmd.Path != a.cmd {
		return cmd.Path, cmd.Err
	}
	resolved, err := exec.LookPath(cmd.Path)
	if resolved != "" {
		cmd.Path = resolved
	}
	return resolved, err
}

// learnAllowlistLocked resolves the allowlist entries named base and adds
// the paths they resolve to, so later runs compare against them directly.
func (a *Authenticator) learnAllowlistLocked(base string) {
	for _, entry := range a.policy.Allowlist {
		if filepath.Base(entry.Command) != base {
			continue
		}
		path, err := exec.LookPath(entry.Command)
		if err != nil {
			klog.V(5).ErrorS(err, "resolving credential plugin allowlist", "name", entry.Command)
			continue
		}
		a.allowed.Insert(path)
	}
}
