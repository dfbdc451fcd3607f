package exec

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kubeclient/client-go/tools/clientcmd/api"

	"k8s.io/apimachinery/pkg/util/wait"
)

// returnBound is how long a caller may take to return once its context
// ended. The plugins below take 30 s or for ever, so a caller that waits
// for the plugin (client-go's behaviour) misses it by far.
const returnBound = 5 * time.Second

// pidEnv makes the plugin write its process id to a file.
func pidEnv(t *testing.T) (api.ExecEnvVar, string) {
	path := filepath.Join(t.TempDir(), "pid")
	return api.ExecEnvVar{Name: "PLUGIN_PID_OUT", Value: path}, path
}

// waitForPID waits until the plugin has started and written its id. The
// wait ends as soon as the file appears; the limit only keeps a broken
// test from hanging.
func waitForPID(t *testing.T, path string) int {
	t.Helper()
	var b []byte
	written := func(context.Context) (bool, error) {
		var err error
		b, err = os.ReadFile(path)
		return err == nil, nil
	}
	if err := wait.PollUntilContextTimeout(context.Background(), 5*time.Millisecond, 30*time.Second, true, written); err != nil {
		t.Fatal("the plugin did not start")
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}

// assertPluginKilled waits for a's refresh goroutines to end (they end only
// after the plugin process was reaped) and checks that the plugin, if it
// started, no longer exists.
func assertPluginKilled(t *testing.T, a *Authenticator, pidPath string) {
	t.Helper()
	a.refreshes.Wait()
	b, err := os.ReadFile(pidPath)
	if err != nil {
		return // killed before it could start
	}
	pid, _ := strconv.Atoi(string(b))
	if processAlive(pid) {
		t.Errorf("plugin process %d still runs", pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestRequestContextBoundsPluginWait: a request whose context ends while the
// plugin runs returns the context's error at once, never reaches the
// server, and the plugin is killed. client-go waits for the plugin to exit
// (30 s for "slow", for ever for "hang").
func TestRequestContextBoundsPluginWait(t *testing.T) {
	var served atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()

	for _, mode := range []string{"slow", "hang"} {
		for _, end := range []string{"cancel", "deadline"} {
			t.Run(mode+"/"+end, func(t *testing.T) {
				pid, pidPath := pidEnv(t)
				a, _, _ := newTestAuthenticator(t, pluginConfig(t, mode, v1APIVersion, pid), nil)
				client := &http.Client{Transport: &roundTripper{a: a, base: http.DefaultTransport}}

				var ctx context.Context
				var cancel context.CancelFunc
				if end == "deadline" {
					ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
				} else {
					ctx, cancel = context.WithCancel(context.Background())
				}
				defer cancel()
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)

				type result struct {
					err      error
					returned time.Time
				}
				done := make(chan result, 1)
				go func() {
					resp, err := client.Do(req)
					if resp != nil {
						resp.Body.Close()
					}
					done <- result{err, time.Now()}
				}()

				want := context.DeadlineExceeded
				var ended time.Time
				if end == "cancel" {
					waitForPID(t, pidPath) // the plugin runs
					ended = time.Now()
					cancel()
					want = context.Canceled
				} else {
					dl, _ := ctx.Deadline()
					ended = dl
				}

				var r result
				select {
				case r = <-done:
				case <-time.After(time.Minute):
					t.Fatal("the request did not return within a minute of its context ending")
				}
				if !errors.Is(r.err, want) {
					t.Errorf("error %v, want %v", r.err, want)
				}
				if took := r.returned.Sub(ended); took > returnBound {
					t.Errorf("returned %v after the context ended, want at most %v", took, returnBound)
				}
				assertPluginKilled(t, a, pidPath)
				if n := served.Load(); n != 0 {
					t.Errorf("server saw %d requests, want 0", n)
				}
			})
		}
	}
}

// TestWaitersHonourTheirOwnContexts: callers waiting for the same plugin
// run each stop when their own context ends; the run goes on while anyone
// still waits, and its answer reaches those who do.
func TestWaitersHonourTheirOwnContexts(t *testing.T) {
	counter, counterPath := counterEnv(t)
	pid, pidPath := pidEnv(t)
	release := filepath.Join(t.TempDir(), "release")
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "wait", v1APIVersion, counter, pid,
		api.ExecEnvVar{Name: "PLUGIN_RELEASE", Value: release}), nil)

	type result struct {
		creds *credentials
		err   error
	}
	patient := make(chan result, 1)
	go func() {
		creds, err := a.getCreds(context.Background())
		patient <- result{creds, err}
	}()
	pluginPID := waitForPID(t, pidPath)

	// An impatient caller joins the run and gives up.
	ctx, cancel := context.WithCancel(context.Background())
	impatient := make(chan error, 1)
	go func() {
		_, err := a.getCreds(ctx)
		impatient <- err
	}()
	cancel()
	if err := <-impatient; !errors.Is(err, context.Canceled) {
		t.Fatalf("impatient caller: %v, want context.Canceled", err)
	}
	if !processAlive(pluginPID) {
		t.Fatal("one caller giving up killed the run another caller waits for")
	}

	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := <-patient
	if r.err != nil || r.creds.token != "token-1" {
		t.Fatalf("patient caller: %+v, %v; want token-1", r.creds, r.err)
	}
	if got := readCounter(t, counterPath); got != 1 {
		t.Errorf("plugin ran %d times, want 1", got)
	}
}

// TestLastWaiterLeavingKillsPlugin: when every caller has given up the
// plugin is killed, and the next caller starts a new run rather than
// joining the dead one.
func TestLastWaiterLeavingKillsPlugin(t *testing.T) {
	counter, counterPath := counterEnv(t)
	pid, pidPath := pidEnv(t)
	release := filepath.Join(t.TempDir(), "release")
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "wait", v1APIVersion, counter, pid,
		api.ExecEnvVar{Name: "PLUGIN_RELEASE", Value: release}), nil)

	ctx1, cancel1 := context.WithCancel(context.Background())
	ctx2, cancel2 := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	go func() { _, err := a.getCreds(ctx1); errs <- err }()
	pluginPID := waitForPID(t, pidPath)
	go func() { _, err := a.getCreds(ctx2); errs <- err }()

	cancel1()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("first caller: %v", err)
	}
	// The second caller may not have joined yet; either way it waits now.
	cancel2()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("second caller: %v", err)
	}
	a.refreshes.Wait()
	if processAlive(pluginPID) {
		t.Errorf("plugin %d still runs after every caller left", pluginPID)
	}

	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	creds, err := a.getCreds(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The killed runs never got as far as counting themselves.
	if creds.token != "token-1" || readCounter(t, counterPath) != 1 {
		t.Errorf("after the kill got %q, want token-1 from one completed run", creds.token)
	}
	if newPID := waitForPID(t, pidPath); newPID == pluginPID {
		t.Errorf("the answer came from the killed process %d", newPID)
	}
}

// TestCertCallbackWaitIsBounded: the TLS client-certificate callback, which
// has no context, stops waiting after certWait and the plugin is killed.
func TestCertCallbackWaitIsBounded(t *testing.T) {
	pid, pidPath := pidEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "hang", v1APIVersion, pid), nil)
	a.certWait = 300 * time.Millisecond

	start := time.Now()
	_, err := a.cert()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cert: %v, want context.DeadlineExceeded", err)
	}
	if took := time.Since(start); took > a.certWait+returnBound {
		t.Errorf("cert returned after %v", took)
	}
	assertPluginKilled(t, a, pidPath)
}
