package transport

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"
	"weak"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/tools/metrics"
)

// idleConnsPerHost is the MaxIdleConnsPerHost of cached transports: clients
// talk to one API server host, so the net/http default of 2 is far too low.
const idleConnsPerHost = 25

// tlsCache is the process-wide cache of transports built by New.
var tlsCache = newTLSCache()

// tlsTransportCache hands out one transport per distinct set of TLS and dial
// settings, so that clients with equal settings share connections.
//
// With the ClientsAllowTLSCacheGC feature the cache holds weak pointers, and
// an entry (and the certificate rotation goroutine of its transport) goes away
// once no client uses the transport any more. Without it, entries live
// forever. The feature is read on every call; each mode keeps its own
// entries (see entryStore).
type tlsTransportCache struct {
	mu     sync.Mutex // guards both stores
	weak   weakStore
	strong strongStore
}

func newTLSCache() *tlsTransportCache {
	c := &tlsTransportCache{strong: strongStore{}}
	c.weak = weakStore{entries: map[tlsCacheKey]weak.Pointer[collectableTransport]{}, mu: &c.mu}
	return c
}

// tlsCacheKey holds every Config setting that shapes the cached transport.
// It must stay strictly comparable (no interfaces), which
// assertStrictlyComparable checks at compile time.
type tlsCacheKey struct {
	serverName         string
	nextProtos         string
	insecure           bool
	disableCompression bool
	// Material is keyed by its file when reloaded, else by its content.
	caFile, caData     string
	certFile, certData string
	keyFile            string
	keyData            string `datapolicy:"security-key"`
	// Holders compare by pointer, which is what makes functions usable here.
	getCert *GetCertHolder
	dial    *DialHolder
}

// assertStrictlyComparable only compiles when K is strictly comparable: a type
// parameter constrained to a concrete type satisfies comparable only if that
// type cannot panic on ==.
func assertStrictlyComparable[K tlsCacheKey]() { requireComparable[K]() }

func requireComparable[T comparable]() {}

var _ = assertStrictlyComparable[tlsCacheKey]

// cacheKeyFor loads the TLS files of c and returns its cache key, or false if
// c cannot be cached (a Proxy function cannot be compared).
func cacheKeyFor(c *Config) (key tlsCacheKey, cacheable bool, err error) {
	if err := loadTLSFiles(c); err != nil || c.Proxy != nil {
		return tlsCacheKey{}, false, err
	}
	tls := &c.TLS
	key.insecure, key.serverName, key.nextProtos = tls.Insecure, tls.ServerName, strings.Join(tls.NextProtos, ",")
	key.getCert, key.dial = tls.GetCertHolder, c.DialHolder
	key.disableCompression = c.DisableCompression
	// Material that is reloaded may change under the transport, so it is
	// identified by its file; static material by its content.
	key.certFile, key.certData = materialIdentity(tls.ReloadTLSFiles, tls.CertFile, tls.CertData)
	key.keyFile, key.keyData = materialIdentity(tls.ReloadTLSFiles, tls.KeyFile, tls.KeyData)
	key.caFile, key.caData = materialIdentity(tls.ReloadCAFiles, tls.CAFile, tls.CAData)
	return key, true, nil
}

// materialIdentity returns what identifies TLS material in a cache key: its
// file name when it is reloaded from the file, else its content.
func materialIdentity(reloaded bool, file string, data []byte) (fileName, content string) {
	if reloaded {
		return file, ""
	}
	return "", string(data)
}

// get returns the transport for config, building and caching it if needed.
func (c *tlsTransportCache) get(config *Config) (http.RoundTripper, error) {
	key, cacheable, err := cacheKeyFor(config)
	if err != nil {
		return nil, err
	}
	if !cacheable {
		metrics.TransportCreateCalls.Increment("uncacheable")
		rt, stopRotation, err := buildTransport(config)
		if err != nil || rt == http.DefaultTransport {
			return rt, err
		}
		return c.store().adopt(rt, stopRotation), nil
	}

	// The lock is held while building so that concurrent callers with the
	// same settings end up with a single transport.
	c.mu.Lock()
	defer c.mu.Unlock()
	store := c.store()
	defer func() { metrics.TransportCacheEntries.Observe(store.len()) }()

	rt, outcome := store.find(key)
	metrics.TransportCreateCalls.Increment(outcome)
	if rt != nil {
		return rt, nil
	}
	rt, stopRotation, err := buildTransport(config)
	if err != nil || rt == http.DefaultTransport {
		return rt, err
	}
	return store.keep(key, rt, stopRotation), nil
}

// store returns the entry store of the current mode.
func (c *tlsTransportCache) store() entryStore {
	if features.FeatureGates().Enabled(features.ClientsAllowTLSCacheGC) {
		return &c.weak
	}
	return c.strong
}

// entryStore holds the cache's transports in one of its two modes. Calls
// of find, keep and len are made with the cache's lock held.
type entryStore interface {
	// find returns the transport cached for key, and the outcome for the
	// TransportCreateCalls metric: "hit", "miss", or "miss-gc" when the
	// entry's transport was collected.
	find(key tlsCacheKey) (http.RoundTripper, string)
	// keep caches rt under key and returns what clients get. stopRotation,
	// when set, stops rt's certificate rotation.
	keep(key tlsCacheKey, rt http.RoundTripper, stopRotation context.CancelFunc) http.RoundTripper
	// adopt returns what clients get for rt, which is not cached.
	adopt(rt http.RoundTripper, stopRotation context.CancelFunc) http.RoundTripper
	// len is the number of entries.
	len() int
}

// strongStore keeps every transport for the life of the process, and with
// it any certificate rotation goroutine, as client-go does without the GC
// feature.
type strongStore map[tlsCacheKey]http.RoundTripper

func (s strongStore) find(key tlsCacheKey) (http.RoundTripper, string) {
	if rt, ok := s[key]; ok {
		return rt, "hit"
	}
	return nil, "miss"
}

func (s strongStore) keep(key tlsCacheKey, rt http.RoundTripper, _ context.CancelFunc) http.RoundTripper {
	s[key] = rt
	return rt
}

func (strongStore) adopt(rt http.RoundTripper, _ context.CancelFunc) http.RoundTripper { return rt }

func (s strongStore) len() int { return len(s) }

// weakStore points weakly at the transports it hands out, wrapped in a
// collectableTransport that clients hold. Once the last client drops it,
// cleanups stop its certificate rotation and delete its entry (taking mu,
// the cache's lock).
type weakStore struct {
	mu      *sync.Mutex
	entries map[tlsCacheKey]weak.Pointer[collectableTransport]
}

func (s *weakStore) find(key tlsCacheKey) (http.RoundTripper, string) {
	ptr, ok := s.entries[key]
	if !ok {
		return nil, "miss"
	}
	if rt := ptr.Value(); rt != nil {
		return rt, "hit"
	}
	return nil, "miss-gc"
}

func (s *weakStore) adopt(rt http.RoundTripper, stopRotation context.CancelFunc) http.RoundTripper {
	if stopRotation == nil {
		// Nothing to clean up when clients are gone.
		return rt
	}
	tracked := &collectableTransport{rt: rt}
	// The metric is read now so that a later swap of the global (by tests)
	// does not see this cleanup.
	rotationStops := metrics.TransportCertRotationGCCalls
	runtime.AddCleanup(tracked, func(struct{}) {
		stopRotation()
		rotationStops.Increment()
	}, struct{}{})
	return tracked
}

func (s *weakStore) keep(key tlsCacheKey, rt http.RoundTripper, stopRotation context.CancelFunc) http.RoundTripper {
	tracked, ok := s.adopt(rt, stopRotation).(*collectableTransport)
	if !ok {
		tracked = &collectableTransport{rt: rt}
	}
	ptr := weak.Make(tracked)
	s.entries[key] = ptr
	gauges := cleanupMetrics{deletions: metrics.TransportCacheGCCalls, entries: metrics.TransportCacheEntries}
	runtime.AddCleanup(tracked, func(key tlsCacheKey) { s.forget(key, ptr, gauges) }, key)
	return tracked
}

// cleanupMetrics are the metrics a cleanup reports to, read when the
// cleanup is registered so that a later swap of the globals (by tests) does
// not see it.
type cleanupMetrics struct {
	deletions metrics.TransportCacheGCCallsMetric
	entries   metrics.TransportCacheMetric
}

// forget deletes the entry of key once its transport was collected,
// unless the entry already points at a newer transport.
func (s *weakStore) forget(key tlsCacheKey, collected weak.Pointer[collectableTransport], m cleanupMetrics) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries[key] != collected {
		m.deletions.Increment("skipped")
		return
	}
	delete(s.entries, key)
	m.deletions.Increment("deleted")
	m.entries.Observe(s.len())
}

func (s *weakStore) len() int { return len(s.entries) }

// buildTransport creates the bottom transport for config. It returns
// http.DefaultTransport when config asks for nothing special, and a stop
// function when it started a certificate rotation goroutine.
func buildTransport(config *Config) (http.RoundTripper, context.CancelFunc, error) {
	tlsConfig, err := TLSConfigFor(config)
	if err != nil {
		return nil, nil, err
	}
	if tlsConfig == nil && config.DialHolder == nil && config.Proxy == nil {
		return http.DefaultTransport, nil, nil
	}

	dial := (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	if config.DialHolder != nil {
		dial = config.DialHolder.Dial
	}
	var stopRotation context.CancelFunc
	if config.TLS.ReloadTLSFiles && tlsConfig != nil && tlsConfig.GetClientCertificate != nil {
		dial, stopRotation = rotateClientCert(tlsConfig, dial)
	}

	t := &http.Transport{
		TLSClientConfig:    tlsConfig,
		DialContext:        dial,
		Proxy:              http.ProxyFromEnvironment,
		DisableCompression: config.DisableCompression,
	}
	if config.Proxy != nil {
		t.Proxy = config.Proxy
	}
	t.TLSHandshakeTimeout = 10 * time.Second
	t.MaxIdleConnsPerHost = idleConnsPerHost
	// SetTransportDefaults enables HTTP/2 with health checks (ReadIdleTimeout
	// and PingTimeout, overridable through HTTP2_READ_IDLE_TIMEOUT_SECONDS and
	// HTTP2_PING_TIMEOUT_SECONDS) unless DISABLE_HTTP2 is set.
	t = utilnet.SetTransportDefaults(t)

	if config.TLS.ReloadCAFiles && tlsConfig != nil && tlsConfig.RootCAs != nil && config.TLS.CAFile != "" {
		return newCAReloadingTransport(config.TLS.CAFile, config.TLS.CAData, t), stopRotation, nil
	}
	return t, stopRotation, nil
}

// rotateClientCert serves the client certificate, read from files that may
// be rotated on disk, through a rotatingClientCert that closes the
// connections made with a certificate once it changes. It returns the dial
// function to use and the function that stops the rotation goroutine.
func rotateClientCert(tlsConfig *tls.Config, dial utilnet.DialFunc) (utilnet.DialFunc, context.CancelFunc) {
	// The cache is a singleton, so one logger name covers all of them.
	rotating := newRotatingClientCert(klog.Background().WithName("tls-transport-cache"), tlsConfig.GetClientCertificate, dial)
	tlsConfig.GetClientCertificate = rotating.GetClientCertificate
	ctx, stop := context.WithCancel(context.Background())
	go rotating.run(ctx.Done())
	return rotating.dialer.DialContext, stop
}

// collectableTransport is the object the GC-enabled cache points to weakly.
// Clients hold it (not the transport inside), so once every client is gone
// it is collected and its cleanups drop the cache entry and stop certificate
// rotation.
type collectableTransport struct {
	rt http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &collectableTransport{}

func (t *collectableTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.rt.RoundTrip(req)
}

func (t *collectableTransport) WrappedRoundTripper() http.RoundTripper { return t.rt }
