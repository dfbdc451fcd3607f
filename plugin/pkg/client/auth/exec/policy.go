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
	switch policy.PolicyType {
	case "", api.PluginPolicyAllowAll, api.PluginPolicyDenyAll:
		if policy.Allowlist != nil {
			return fmt.Errorf("misconfigured credential plugin allowlist: plugin policy is %q but allowlist is non-nil", policy.PolicyType)
		}
		return nil
	case api.PluginPolicyAllowlist:
		return validateAllowlist(policy.Allowlist)
	default:
		return fmt.Errorf("unknown plugin policy: %q", policy.PolicyType)
	}
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

// checkPolicyLocked decides whether cmd may run under the plugin policy.
// Under the Allowlist policy cmd.Path is replaced by the resolved path that
// was checked, so the binary that runs is the binary that was allowed.
func (a *Authenticator) checkPolicyLocked(cmd *exec.Cmd) error {
	switch a.policy.PolicyType {
	case "", api.PluginPolicyAllowAll:
		return nil
	case api.PluginPolicyDenyAll:
		return fmt.Errorf("plugin %q not allowed: policy set to %q", a.cmd, api.PluginPolicyDenyAll)
	case api.PluginPolicyAllowlist:
		return a.checkAllowlistLocked(cmd)
	default:
		return fmt.Errorf("unknown plugin policy %q", a.policy.PolicyType)
	}
}

func (a *Authenticator) checkAllowlistLocked(cmd *exec.Cmd) error {
	if a.allowed.Has(a.cmd) || a.allowed.Has(cmd.Path) {
		return nil
	}

	// exec.Command already looked bare names up in PATH; otherwise resolve
	// the path ourselves.
	resolved, resolveErr := cmd.Path, cmd.Err
	if cmd.Path == a.cmd {
		resolved, resolveErr = exec.LookPath(cmd.Path)
		if resolved != "" {
			cmd.Path = resolved
		}
	}
	if resolveErr != nil {
		return fmt.Errorf("plugin path %q cannot be resolved for credential plugin allowlist check: %w", cmd.Path, resolveErr)
	}
	if a.allowed.Has(resolved) {
		return nil
	}

	// Resolve the entries that could match (same base name) and retry;
	// resolved entries are remembered for later runs.
	base := filepath.Base(cmd.Path)
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
	if a.allowed.Has(resolved) {
		return nil
	}
	return fmt.Errorf("plugin path %q is not permitted by the credential plugin allowlist", cmd.Path)
}
