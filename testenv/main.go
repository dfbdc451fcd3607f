package testenv

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// Main is the body of a test package's TestMain: it starts one environment
// with opts, stores it in *env for the package's tests, runs them, prints
// the servers' log tails when a test failed, stops the environment and
// exits. SIGINT and SIGTERM stop the environment before the binary exits.
//
//	var env *testenv.Env
//
//	func TestMain(m *testing.M) { testenv.Main(m, &env, testenv.Options{}) }
func Main(m *testing.M, env **Env, opts Options) {
	os.Exit(run(m, env, opts))
}

func run(m *testing.M, out **Env, opts Options) int {
	started := time.Now()
	env, err := Start(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testenv: starting the control plane: %v\n", err)
		return 1
	}
	defer env.Stop()
	fmt.Fprintf(os.Stderr, "testenv: control plane at %s ready in %v\n", env.Host, time.Since(started).Round(time.Millisecond))
	*out = env

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case sig := <-signals:
			fmt.Fprintf(os.Stderr, "testenv: %v received, stopping the control plane\n", sig)
			env.Stop()
			os.Exit(1)
		case <-finished:
			signal.Stop(signals)
		}
	}()

	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "testenv: tests failed; server logs follow\n%s", env.LogTail(60))
	}
	return code
}
