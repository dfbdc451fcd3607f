package transport

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubeclient/client-go/features"
	featuretesting "github.com/kubeclient/client-go/features/testing"
	"github.com/kubeclient/client-go/tools/metrics"
)

// labelRecorder records metric labels and forwards them to a channel when
// one is set.
type labelRecorder struct {
	mu     sync.Mutex
	labels []string
	notify chan string
}

func (r *labelRecorder) Increment(label string) {
	r.mu.Lock()
	r.labels = append(r.labels, label)
	r.mu.Unlock()
	if r.notify != nil {
		r.notify <- label
	}
}

func (r *labelRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.labels
	r.labels = nil
	return l
}

type counterRecorder struct{ notify chan struct{} }

func (c counterRecorder) Increment() { c.notify <- struct{}{} }

// swapCreateCallsMetric installs a recorder for TransportCreateCalls for the
// duration of the test.
func swapCreateCallsMetric(t *testing.T) *labelRecorder {
	rec := &labelRecorder{}
	saved := metrics.TransportCreateCalls
	metrics.TransportCreateCalls = rec
	t.Cleanup(func() { metrics.TransportCreateCalls = saved })
	return rec
}

func TestCacheKeyCoversEveryTLSSetting(t *testing.T) {
	ca := newTestCA(t, "ca")
	otherCA := newTestCA(t, "ca2")
	client := ca.clientCert(t, "alice")
	other := ca.clientCert(t, "bob")
	dir := t.TempDir()
	getCert := &GetCertHolder{GetCert: func() (*tls.Certificate, error) { return nil, nil }}
	getCert2 := &GetCertHolder{GetCert: getCert.GetCert}
	dial := &DialHolder{Dial: (&net.Dialer{}).DialContext}
	dial2 := &DialHolder{Dial: dial.Dial}

	base := func() *Config {
		return &Config{TLS: TLSConfig{CAData: ca.certPEM, CertData: client.certPEM, KeyData: client.keyPEM}}
	}
	mutations := map[string]func(c *Config){
		"CAData":           func(c *Config) { c.TLS.CAData = otherCA.certPEM },
		"CAFile":           func(c *Config) { c.TLS.CAData = nil; c.TLS.CAFile = writeFile(t, dir, "ca.crt", ca.certPEM) },
		"CertData and key": func(c *Config) { c.TLS.CertData, c.TLS.KeyData = other.certPEM, other.keyPEM },
		"cert and key files": func(c *Config) {
			c.TLS.CertData, c.TLS.KeyData = nil, nil
			c.TLS.CertFile = writeFile(t, dir, "c.crt", client.certPEM)
			c.TLS.KeyFile = writeFile(t, dir, "c.key", client.keyPEM)
		},
		"ServerName":                         func(c *Config) { c.TLS.ServerName = "kubernetes.default.svc" },
		"NextProtos":                         func(c *Config) { c.TLS.NextProtos = []string{"http/1.1"} },
		"DisableCompression":                 func(c *Config) { c.DisableCompression = true },
		"GetCertHolder":                      func(c *Config) { c.TLS.GetCertHolder = getCert },
		"other GetCertHolder with same func": func(c *Config) { c.TLS.GetCertHolder = getCert2 },
		"DialHolder":                         func(c *Config) { c.DialHolder = dial },
		"other DialHolder with same func":    func(c *Config) { c.DialHolder = dial2 },
		"Insecure":                           func(c *Config) { c.TLS.CAData = nil; c.TLS.Insecure = true },
	}

	baseRT, err := tlsCache.get(base())
	if err != nil {
		t.Fatal(err)
	}
	again, err := tlsCache.get(base())
	if err != nil {
		t.Fatal(err)
	}
	if again != baseRT {
		t.Fatal("equal configs got different transports")
	}
	seen := map[http.RoundTripper]string{baseRT: "base"}
	for name, mutate := range mutations {
		c := base()
		mutate(c)
		rt, err := tlsCache.get(c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if prev, dup := seen[rt]; dup {
			t.Errorf("%s shares a transport with %s", name, prev)
		}
		seen[rt] = name
		// The same settings again hit the cache.
		c2 := base()
		mutate(c2)
		if rt2, _ := tlsCache.get(c2); rt2 != rt {
			t.Errorf("%s: equal configs got different transports", name)
		}
	}
	runtime.KeepAlive(seen)

	// Settings outside the TLS layer do not split the cache.
	c := base()
	c.BearerToken, c.UserAgent, c.Impersonate.UserName = "tok", "ua", "bob"
	if rt, _ := tlsCache.get(c); rt != baseRT {
		t.Error("non-TLS settings produced a different transport")
	}
}

func TestCacheMetricsAndUncacheableConfigs(t *testing.T) {
	rec := swapCreateCallsMetric(t)
	ca := newTestCA(t, "ca")
	cfg := func() *Config { return &Config{TLS: TLSConfig{CAData: ca.certPEM}} }

	first, err := New(cfg())
	if err != nil {
		t.Fatal(err)
	}
	second, err := New(cfg())
	if err != nil {
		t.Fatal(err)
	}
	if first != second {
		t.Error("equal configs not shared")
	}

	withProxy := cfg()
	withProxy.Proxy = http.ProxyFromEnvironment
	p1, _ := New(withProxy)
	p2, _ := New(withProxy)
	if p1 == p2 || p1 == first {
		t.Error("configs with a Proxy func must each get a new transport")
	}
	if got, want := rec.take(), []string{"miss", "hit", "uncacheable", "uncacheable"}; !slices.Equal(got, want) {
		t.Errorf("create calls %v, want %v", got, want)
	}
	runtime.KeepAlive([]any{first, second, p1, p2})
}

func TestEqualConfigsShareConnections(t *testing.T) {
	ca := newTestCA(t, "ca")
	var newConns atomic.Int32
	srv := newTLSAPIServer(t, ca, ca, nil, func(srv *httptest.Server) {
		srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				newConns.Add(1)
			}
		}
	})
	client := ca.clientCert(t, "alice")
	for _, proto := range [][]string{{"http/1.1"}, nil} {
		newConns.Store(0)
		var clients []http.RoundTripper
		for i := 0; i < 3; i++ {
			// Separately built but equal configs, with different
			// credentials on top.
			rt, err := New(&Config{
				TLS:       TLSConfig{CAData: ca.certPEM, CertData: client.certPEM, KeyData: client.keyPEM, NextProtos: proto},
				UserAgent: "client-" + string(rune('a'+i)),
			})
			if err != nil {
				t.Fatal(err)
			}
			clients = append(clients, rt)
		}
		for _, rt := range clients {
			if user, err := whoAmI(t, rt, srv.URL); err != nil || user != "alice" {
				t.Fatalf("request: %q, %v", user, err)
			}
		}
		if n := newConns.Load(); n != 1 {
			t.Errorf("NextProtos %v: %d connections opened for 3 clients with equal TLS settings, want 1", proto, n)
		}
	}
}

func TestCacheWithoutGC(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowTLSCacheGC, false)
	cache := newTLSCache()
	ca := newTestCA(t, "ca")
	rt, err := cache.get(&Config{TLS: TLSConfig{CAData: ca.certPEM}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rt.(*http.Transport); !ok {
		t.Errorf("without GC the cache should hand out the transport itself, got %T", rt)
	}
	rt2, _ := cache.get(&Config{TLS: TLSConfig{CAData: ca.certPEM}})
	if rt2 != rt || len(cache.strong) != 1 || len(cache.weak.entries) != 0 {
		t.Errorf("strong cache: shared=%v strong=%d weak=%d", rt2 == rt, len(cache.strong), len(cache.weak.entries))
	}
}

// waitForGC runs the garbage collector until ch yields a value.
func waitForGC[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		runtime.GC()
		select {
		case v := <-ch:
			return v
		case <-tick.C:
		case <-deadline:
			t.Fatal("cleanup did not run after garbage collection")
		}
	}
}

func TestCacheEntryCollectedWhenUnused(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowTLSCacheGC, true)
	gcCalls := &labelRecorder{notify: make(chan string, 4)}
	savedGC := metrics.TransportCacheGCCalls
	metrics.TransportCacheGCCalls = gcCalls
	t.Cleanup(func() { metrics.TransportCacheGCCalls = savedGC })

	cache := newTLSCache()
	ca := newTestCA(t, "ca")
	func() {
		rt, err := cache.get(&Config{TLS: TLSConfig{CAData: ca.certPEM}})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := rt.(*collectableTransport); !ok {
			t.Fatalf("got %T, want a collectable transport", rt)
		}
	}()
	if got := waitForGC(t, gcCalls.notify); got != "deleted" {
		t.Errorf("GC cleanup result %q, want deleted", got)
	}
	cache.mu.Lock()
	n := cache.store().len()
	cache.mu.Unlock()
	if n != 0 {
		t.Errorf("%d entries left after the transport was collected", n)
	}
}

func TestCertRotationStoppedWhenTransportCollected(t *testing.T) {
	featuretesting.SetFeatureDuringTest(t, features.ClientsAllowTLSCacheGC, true)
	stopped := make(chan struct{}, 1)
	saved := metrics.TransportCertRotationGCCalls
	metrics.TransportCertRotationGCCalls = counterRecorder{notify: stopped}
	t.Cleanup(func() { metrics.TransportCertRotationGCCalls = saved })

	ca := newTestCA(t, "ca")
	client := ca.clientCert(t, "alice")
	dir := t.TempDir()
	cfg := &Config{
		TLS: TLSConfig{
			CAData:   ca.certPEM,
			CertFile: writeFile(t, dir, "tls.crt", client.certPEM),
			KeyFile:  writeFile(t, dir, "tls.key", client.keyPEM),
		},
		// A Proxy func makes the config uncacheable: only the rotation
		// cleanup keeps a reference to the transport's fate.
		Proxy: func(*http.Request) (*url.URL, error) { return nil, nil },
	}
	func() {
		rt, err := newTLSCache().get(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := rt.(*collectableTransport); !ok {
			t.Fatalf("got %T, want a collectable transport", rt)
		}
	}()
	waitForGC(t, stopped)
}

func TestDialHolderSharedTransportUsesDial(t *testing.T) {
	ca := newTestCA(t, "ca")
	srv := newTLSAPIServer(t, ca, nil, nil)
	var dials atomic.Int32
	holder := &DialHolder{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	a, _ := New(&Config{TLS: TLSConfig{CAData: ca.certPEM}, DialHolder: holder})
	b, _ := New(&Config{TLS: TLSConfig{CAData: ca.certPEM}, DialHolder: holder})
	if a != b {
		t.Error("configs sharing a DialHolder should share a transport")
	}
	if _, err := whoAmI(t, a, srv.URL); err != nil {
		t.Fatal(err)
	}
	if _, err := whoAmI(t, b, srv.URL); err != nil {
		t.Fatal(err)
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("%d dials, want 1 shared connection", n)
	}
}
