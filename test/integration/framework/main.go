package framework

import (
	"os"
	"testing"

	"github.com/kubeclient/client-go/testenv"
)

// ControlPlane is the environment every test package shares: etcd,
// kube-apiserver and kube-controller-manager started by testenv.
type ControlPlane = testenv.Env

// Identities in the static token file.
const (
	AdminUser  = testenv.AdminUser
	AdminToken = testenv.AdminToken
	PlainUser  = testenv.UnprivilegedUser
	PlainToken = testenv.UnprivilegedToken
)

// RunMain is the body of a test package's TestMain: it starts one control
// plane through testenv.Main, stores it in *cp for the package's tests and
// runs them.
//
// When the binary was started as the exec credential plugin of
// ExecPluginConfig, RunMain plays that part instead and exits.
func RunMain(m *testing.M, cp **ControlPlane) {
	RunMainWithOptions(m, cp, testenv.Options{})
}

// RunMainWithOptions is RunMain with a control plane started with opts
// (extra kube-apiserver flags, for example).
func RunMainWithOptions(m *testing.M, cp **ControlPlane, opts testenv.Options) {
	if os.Getenv(execPluginTokenEnv) != "" {
		os.Exit(runExecPlugin())
	}
	testenv.Main(m, cp, opts)
}

// DumpLogsOnFailure prints the tail of the servers' logs at the end of t if
// t failed.
func DumpLogsOnFailure(t testing.TB, cp *ControlPlane) {
	t.Helper()
	cp.LogsOnFailure(t)
}
