package exec

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// stopRunAtCleanup kills a's plugin run, if one is still in flight when
// the test ends, and waits for it to be reaped.
func stopRunAtCleanup(t *testing.T, a *Authenticator) {
	t.Cleanup(func() {
		a.mu.Lock()
		r := a.inflight
		a.mu.Unlock()
		if r != nil {
			r.cancel()
		}
		a.refreshes.Wait()
	})
}

// startsEnv makes every plugin run note its start in a file.
func startsEnv(t *testing.T) (api.ExecEnvVar, string) {
	path := filepath.Join(t.TempDir(), "starts")
	return api.ExecEnvVar{Name: "PLUGIN_STARTS", Value: path}, path
}

// readStarts returns how many plugin runs started.
func readStarts(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// releaseEnv makes the plugin wait, once started, until release is called.
func releaseEnv(t *testing.T) (api.ExecEnvVar, func()) {
	path := filepath.Join(t.TempDir(), "release")
	return api.ExecEnvVar{Name: "PLUGIN_RELEASE", Value: path}, func() {
		t.Helper()
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRequestContextBoundsPluginWait: a request whose context ends while the
// plugin runs returns the context's error at once and never reaches the
// server; the plugin run goes on for the next request. client-go waits for
// the plugin to exit (30 s for "slow", for ever for "hang").
func TestRequestContextBoundsPluginWait(t *testing.T) {
	var served atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.Add(1) }))
	defer srv.Close()

	for _, mode := range []string{"slow", "hang"} {
		for _, end := range []string{"cancel", "deadline"} {
			t.Run(mode+"/"+end, func(t *testing.T) {
				pid, pidPath := pidEnv(t)
				a, _, _ := newTestAuthenticator(t, pluginConfig(t, mode, v1APIVersion, pid), nil)
				stopRunAtCleanup(t, a)
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
				if pluginPID := waitForPID(t, pidPath); !processAlive(pluginPID) {
					t.Error("the request giving up killed the plugin run")
				}
				if n := served.Load(); n != 0 {
					t.Errorf("server saw %d requests, want 0", n)
				}
			})
		}
	}
}

// TestWaitersHonourTheirOwnContexts: callers waiting for the same plugin
// run each stop when their own context ends; the run goes on, and its
// answer reaches those who still wait.
func TestWaitersHonourTheirOwnContexts(t *testing.T) {
	counter, counterPath := counterEnv(t)
	pid, pidPath := pidEnv(t)
	releaseVar, release := releaseEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "wait", v1APIVersion, counter, pid, releaseVar), nil)

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

	release()
	r := <-patient
	if r.err != nil || r.creds.token != "token-1" {
		t.Fatalf("patient caller: %+v, %v; want token-1", r.creds, r.err)
	}
	if got := readCounter(t, counterPath); got != 1 {
		t.Errorf("plugin ran %d times, want 1", got)
	}
}

// TestRetryLoopWithSlowPlugin is a client-go user's retry loop: five
// requests, each with a short timeout, against a plugin slower than that
// timeout (a cloud provider's token command on a cold start). On
// client-go the first request fails late, the plugin finishes, its token
// is cached and requests 2-5 are authorized: one plugin run. The plugin
// here answers only once the first request has failed, so the outcome does
// not depend on timing; request timeouts other than the first are bounds
// for a broken test.
func TestRetryLoopWithSlowPlugin(t *testing.T) {
	var authorized []string
	var mu sync.Mutex // guards authorized
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		authorized = append(authorized, r.Header.Get("Authorization"))
		mu.Unlock()
	}))
	defer srv.Close()

	starts, startsPath := startsEnv(t)
	releaseVar, release := releaseEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion, starts, releaseVar), nil)
	stopRunAtCleanup(t, a)
	client := &http.Client{Transport: &roundTripper{a: a, base: http.DefaultTransport}}

	calls := []struct {
		timeout time.Duration
		wantErr error
	}{
		{300 * time.Millisecond, context.DeadlineExceeded}, // the plugin is still running
		{30 * time.Second, nil},                            // joins the run the first call started
		{30 * time.Second, nil},                            // cached
		{30 * time.Second, nil},
		{30 * time.Second, nil},
	}
	for i, c := range calls {
		ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := client.Do(req)
		if resp != nil {
			resp.Body.Close()
		}
		cancel()
		if c.wantErr != nil {
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("call %d: %v, want %v", i+1, err, c.wantErr)
			}
		} else if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if i == 0 {
			release() // the plugin finishes after the first call gave up
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(authorized) != 4 {
		t.Errorf("server saw %d requests, want 4", len(authorized))
	}
	for i, got := range authorized {
		if got != "Bearer token-1" {
			t.Errorf("request %d: Authorization %q, want Bearer token-1", i+2, got)
		}
	}
	if n := readStarts(t, startsPath); n != 1 {
		t.Errorf("plugin started %d times, want 1", n)
	}
}

// TestInteractivePluginOutlivesRequestTimeout: an interactive plugin (here
// one reading a line from standard input, like an MFA prompt) takes as long
// as the person at the terminal. A request that times out meanwhile must
// not kill it, nor must the limit on plugins that are not interactive: the
// answer typed after the timeout authorizes the next request. client-go
// runs such a plugin until it exits.
func TestInteractivePluginOutlivesRequestTimeout(t *testing.T) {
	starts, startsPath := startsEnv(t)
	pid, pidPath := pidEnv(t)
	c := pluginConfig(t, "stdin", v1APIVersion, starts, pid)
	c.InteractiveMode = api.IfAvailableExecInteractiveMode
	a, err := newAuthenticator(&authenticatorCache{byKey: map[string]*Authenticator{}}, func(int) bool { return true }, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.stderr = nil
	a.runLimit = time.Nanosecond // applies to plugins that are not interactive only
	stdin, typed, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	defer typed.Close()
	a.stdin = stdin
	stopRunAtCleanup(t, a)

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := a.getCreds(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request while the plugin waits for input: %v, want context.DeadlineExceeded", err)
	}
	if pluginPID := waitForPID(t, pidPath); !processAlive(pluginPID) {
		t.Fatal("the request timing out killed the interactive plugin")
	}

	if _, err := typed.WriteString("yes\n"); err != nil {
		t.Fatal(err)
	}
	creds, err := a.getCreds(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if creds.token != "stdin:yes" {
		t.Errorf("token %q, want stdin:yes", creds.token)
	}
	if n := readStarts(t, startsPath); n != 1 {
		t.Errorf("plugin started %d times, want 1", n)
	}
}

// TestRunLimitKillsHungPlugin: a plugin that is not interactive and never
// exits is killed once it has run for the run limit; its callers get an
// error that says so, and the next caller starts a new run.
func TestRunLimitKillsHungPlugin(t *testing.T) {
	pid, pidPath := pidEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "hang", v1APIVersion, pid), nil)
	a.runLimit = 300 * time.Millisecond

	_, err := a.getCreds(context.Background())
	if err == nil || !strings.Contains(err.Error(), "ran longer than the 300ms allowed") {
		t.Errorf("getCreds: %v, want the run limit's error", err)
	}
	assertPluginKilled(t, a, pidPath)
	a.mu.Lock()
	inflight := a.inflight
	a.mu.Unlock()
	if inflight != nil {
		t.Error("the killed run is still the one callers join")
	}
}

// TestCertCallbackJoinsRunARequestLeft: the TLS client-certificate callback
// (no context of its own) waits for the plugin run a timed-out request
// started and gets its certificate; the plugin ran once. client-go's
// callback waits for the plugin too.
func TestCertCallbackJoinsRunARequestLeft(t *testing.T) {
	pki := newTestPKI(t, 2)
	starts, startsPath := startsEnv(t)
	counter, _ := counterEnv(t)
	pid, pidPath := pidEnv(t)
	releaseVar, release := releaseEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "cert", v1APIVersion, starts, counter, pid, releaseVar,
		api.ExecEnvVar{Name: "PLUGIN_CERTS", Value: pki.dir}), nil)
	stopRunAtCleanup(t, a)

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := a.getCreds(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request: %v, want context.DeadlineExceeded", err)
	}
	waitForPID(t, pidPath)

	type result struct {
		cert *tls.Certificate
		err  error
	}
	done := make(chan result, 1)
	go func() {
		cert, err := a.cert()
		done <- result{cert, err}
	}()
	release()
	r := <-done
	if r.err != nil {
		t.Fatalf("cert: %v", r.err)
	}
	if r.cert == nil || r.cert.Leaf == nil || r.cert.Leaf.Subject.CommonName != "client-1" {
		t.Errorf("cert callback got %v, want client-1's certificate", r.cert)
	}
	if n := readStarts(t, startsPath); n != 1 {
		t.Errorf("plugin started %d times, want 1", n)
	}
}
