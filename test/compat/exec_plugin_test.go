package compat

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// README: "Exec credential plugins: a request waits for the plugin only
// as long as its context allows ... a retry loop with short timeouts is
// authorized on the first try after the plugin finished, with one plugin
// run, as on client-go."

// TestExecPluginRetryLoop is a client-go user's retry loop: five List
// calls, each with a short timeout, against a credential plugin slower
// than the timeout. The first call fails (on client-go too: its context
// has ended by the time the plugin answers); the plugin finishes, its
// token is cached, and the next four calls are authorized. The plugin
// answers once the first call has failed, so nothing depends on timing.
func TestExecPluginRetryLoop(t *testing.T) {
	var mu sync.Mutex // guards authorized
	var authorized []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		authorized = append(authorized, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"NamespaceList","apiVersion":"v1","metadata":{},"items":[]}`))
	}))
	defer srv.Close()

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	starts, release := filepath.Join(dir, "starts"), filepath.Join(dir, "release")
	// A command line of its own keeps this test's plugin state apart
	// from any other test's (authenticators are shared per config).
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, ExecProvider: &clientcmdapi.ExecConfig{
		Command:    self,
		Args:       []string{"-test.run=^$", dir},
		APIVersion: "client.authentication.k8s.io/v1",
		Env: []clientcmdapi.ExecEnvVar{
			{Name: compatPluginEnv, Value: "1"},
			{Name: "PLUGIN_STARTS", Value: starts},
			{Name: "PLUGIN_RELEASE", Value: release},
			{Name: "GORACE", Value: "atexit_sleep_ms=0"},
		},
		InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
	}})
	if err != nil {
		t.Fatal(err)
	}

	var errs []error
	for i := range 5 {
		timeout := 30 * time.Second // a bound for a broken test
		if i == 0 {
			timeout = 300 * time.Millisecond // expires while the plugin runs
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		_, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		cancel()
		errs = append(errs, err)
		if i == 0 {
			if err := os.WriteFile(release, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !errors.Is(errs[0], context.DeadlineExceeded) {
		t.Errorf("call 1: %v, want context.DeadlineExceeded", errs[0])
	}
	for i, err := range errs[1:] {
		if err != nil {
			t.Errorf("call %d: %v", i+2, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(authorized) != 4 {
		t.Errorf("server saw %d requests, want 4", len(authorized))
	}
	for _, got := range authorized {
		if got != "Bearer plugin-token" {
			t.Errorf("Authorization %q, want Bearer plugin-token", got)
		}
	}
	if n := countLines(t, starts); n != 1 {
		t.Errorf("plugin started %d times, want 1", n)
	}
}
