package transport

import (
	"crypto/x509"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeclient/client-go/features"
	featuretesting "github.com/kubeclient/client-go/features/testing"
	"github.com/kubeclient/client-go/tools/metrics"
	testingclock "k8s.io/utils/clock/testing"
)

// reloadRecorder records TransportCAReloads results as "result/reason".
type reloadRecorder struct {
	mu      sync.Mutex
	results []string
}

func (r *reloadRecorder) Increment(result, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results = append(r.results, result+"/"+reason)
}

func (r *reloadRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results
	r.results = nil
	return res
}

func TestCARotation(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCARotation, true)
	reloads := &reloadRecorder{}
	saved := metrics.TransportCAReloads
	metrics.TransportCAReloads = reloads
	t.Cleanup(func() { metrics.TransportCAReloads = saved })

	oldCA, newCA := newTestCA(t, "old-ca"), newTestCA(t, "new-ca")
	srv := newTLSAPIServer(t, newCA, nil, nil) // the server already moved to the new CA
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.crt", oldCA.certPEM)

	cfg := &Config{TLS: TLSConfig{CAFile: caFile}}
	rt, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.TLS.ReloadCAFiles {
		t.Fatal("a CA given only as a file should be marked for reloading")
	}
	holder, ok := rt.(*collectableTransport).rt.(*caReloadingTransport)
	if !ok {
		t.Fatalf("transport is %T, want a CA reloading transport", rt.(*collectableTransport).rt)
	}
	clock := testingclock.NewFakeClock(time.Now())
	holder.clock = clock
	holder.lastChecked = clock.Now()
	first := holder.WrappedRoundTripper()

	expectUnknownAuthority := func(when string) {
		t.Helper()
		if _, err := whoAmI(t, rt, srv.URL); err == nil || !strings.Contains(err.Error(), "unknown authority") {
			t.Fatalf("%s: error %v, want unknown authority", when, err)
		}
	}
	expectUnknownAuthority("with the old CA")

	// The new bundle is only picked up once the check interval has passed.
	writeFile(t, dir, "ca.crt", append(append([]byte{}, oldCA.certPEM...), newCA.certPEM...))
	expectUnknownAuthority("before the check interval")
	clock.Step(caCheckInterval)
	if _, err := whoAmI(t, rt, srv.URL); err != nil {
		t.Fatalf("after CA rotation: %v", err)
	}
	if holder.WrappedRoundTripper() == first {
		t.Error("transport was not replaced")
	}
	if got := reloads.take(); len(got) != 1 || got[0] != "success/updated" {
		t.Errorf("reload metrics %v", got)
	}

	// Broken, empty, unchanged and missing files keep the current roots.
	current := holder.WrappedRoundTripper()
	for _, step := range []struct {
		content []byte // nil removes the file
		want    string
	}{
		{[]byte("garbage"), "failure/ca_parse_error"},
		{[]byte{}, "failure/empty"},
		{append(append([]byte{}, oldCA.certPEM...), newCA.certPEM...), "success/unchanged"},
		{nil, "failure/read_error"},
	} {
		if step.content == nil {
			removeFile(t, caFile)
		} else {
			writeFile(t, dir, "ca.crt", step.content)
		}
		clock.Step(caCheckInterval)
		if _, err := whoAmI(t, rt, srv.URL); err != nil {
			t.Fatalf("%s: request failed: %v", step.want, err)
		}
		if got := reloads.take(); len(got) != 1 || got[0] != step.want {
			t.Errorf("reload metrics %v, want [%s]", got, step.want)
		}
		if holder.WrappedRoundTripper() != current {
			t.Errorf("%s: transport replaced", step.want)
		}
	}

	// Between checks the file is not read at all.
	if _, err := whoAmI(t, rt, srv.URL); err != nil {
		t.Fatal(err)
	}
	if got := reloads.take(); len(got) != 0 {
		t.Errorf("file checked again within the interval: %v", got)
	}
}

func TestCARotationDisabled(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCARotation, false)
	ca := newTestCA(t, "ca")
	caFile := writeFile(t, t.TempDir(), "ca.crt", ca.certPEM)

	cfg := &Config{TLS: TLSConfig{CAFile: caFile}}
	rt, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TLS.ReloadCAFiles {
		t.Error("ReloadCAFiles set with the feature disabled")
	}
	innermostHTTPTransport(t, rt) // fails on anything but plain wrappers
	if _, ok := rt.(*collectableTransport).rt.(*caReloadingTransport); ok {
		t.Error("CA reloading transport built with the feature disabled")
	}

	_, err = New(&Config{TLS: TLSConfig{CAFile: caFile, ReloadCAFiles: true}})
	if err == nil || !strings.Contains(err.Error(), "ReloadCAFiles=true requires ClientsAllowCARotation to be enabled") {
		t.Errorf("error = %v", err)
	}
}

func TestEmptyCAFileTrustsNothing(t *testing.T) {
	// With CA rotation, an empty CA file must not fall back to the system
	// roots.
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowCARotation, true)
	cfg, err := TLSConfigFor(&Config{TLS: TLSConfig{CAFile: writeFile(t, t.TempDir(), "ca.crt", nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RootCAs == nil || !cfg.RootCAs.Equal(x509.NewCertPool()) {
		t.Errorf("RootCAs = %v, want an empty pool", cfg.RootCAs)
	}
}
