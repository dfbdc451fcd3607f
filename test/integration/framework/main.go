package framework

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// RunMain is the body of a test package's TestMain: it starts one control
// plane, stores it in *cp for the package's tests, runs them, prints the
// servers' log tails when a test failed, stops the control plane and exits.
// SIGINT and SIGTERM stop the control plane before the binary exits.
//
// When the binary was started as the exec credential plugin of
// ExecPluginConfig, RunMain plays that part instead and exits.
func RunMain(m *testing.M, cp **ControlPlane) {
	RunMainWithOptions(m, cp, Options{})
}

// RunMainWithOptions is RunMain with a control plane started with opts
// (extra kube-apiserver flags, for example).
func RunMainWithOptions(m *testing.M, cp **ControlPlane, opts Options) {
	if os.Getenv(execPluginTokenEnv) != "" {
		os.Exit(runExecPlugin())
	}
	os.Exit(runMain(m, cp, opts))
}

func runMain(m *testing.M, out **ControlPlane, opts Options) int {
	started := time.Now()
	cp, err := Start(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "integration: starting the control plane: %v\n", err)
		return 1
	}
	defer cp.Stop()
	fmt.Fprintf(os.Stderr, "integration: control plane at %s ready in %v\n", cp.Host, time.Since(started).Round(time.Millisecond))
	*out = cp

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case sig := <-signals:
			fmt.Fprintf(os.Stderr, "integration: %v received, stopping the control plane\n", sig)
			cp.Stop()
			os.Exit(1)
		case <-finished:
			signal.Stop(signals)
		}
	}()

	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "integration: tests failed; server logs follow\n%s", cp.LogTail(60))
	}
	return code
}

// DumpLogsOnFailure prints the tail of the servers' logs at the end of t if
// t failed.
func DumpLogsOnFailure(t testing.TB, cp *ControlPlane) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server logs:\n%s", cp.LogTail(30))
		}
	})
}
