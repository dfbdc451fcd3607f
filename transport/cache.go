package transport

import (
	"context"
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
// forever.
type tlsTransportCache struct {
	mu     sync.Mutex                                         // guards both maps
	weak   map[tlsCacheKey]weak.Pointer[collectableTransport] // used with ClientsAllowTLSCacheGC
	strong map[tlsCacheKey]http.RoundTripper                  // used without it
}

func newTLSCache() *tlsTransportCache {
	return &tlsTransportCache{
		weak:   map[tlsCacheKey]weak.Pointer[collectableTransport]{},
		strong: map[tlsCacheKey]http.RoundTripper{},
	}
}

// tlsCacheKey holds every Config setting that shapes the cached transport.
// It must stay strictly comparable (no interfaces), which
// assertStrictlyComparable checks at compile time.
type tlsCacheKey struct {
	insecure           bool
	caData             string
	caFile             string
	certData           string
	keyData            string `datapolicy:"security-key"`
	certFile           string
	keyFile            string
	serverName         string
	nextProtos         string
	disableCompression bool
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
func cacheKeyFor(c *Config) (tlsCacheKey, bool, error) {
	if err := loadTLSFiles(c); err != nil {
		return tlsCacheKey{}, false, err
	}
	if c.Proxy != nil {
		return tlsCacheKey{}, false, nil
	}

	k := tlsCacheKey{
		insecure:           c.TLS.Insecure,
		serverName:         c.TLS.ServerName,
		nextProtos:         strings.Join(c.TLS.NextProtos, ","),
		disableCompression: c.DisableCompression,
		getCert:            c.TLS.GetCertHolder,
		dial:               c.DialHolder,
	}
	// Reloaded material is identified by its files, since the content may
	// change under the transport; static material by its content.
	if c.TLS.ReloadTLSFiles {
		k.certFile, k.keyFile = c.TLS.CertFile, c.TLS.KeyFile
	} else {
		k.certData, k.keyData = string(c.TLS.CertData), string(c.TLS.KeyData)
	}
	if c.TLS.ReloadCAFiles {
		k.caFile = c.TLS.CAFile
	} else {
		k.caData = string(c.TLS.CAData)
	}
	return k, true, nil
}

// get returns the transport for config, building and caching it if needed.
func (c *tlsTransportCache) get(config *Config) (http.RoundTripper, error) {
	key, cacheable, err := cacheKeyFor(config)
	if err != nil {
		return nil, err
	}

	if cacheable {
		// Hold the lock while building so that concurrent callers with the
		// same settings end up with a single transport.
		c.mu.Lock()
		defer c.mu.Unlock()
		defer func() { metrics.TransportCacheEntries.Observe(c.lenLocked()) }()

		rt, found := c.lookupLocked(key)
		switch {
		case rt != nil:
			metrics.TransportCreateCalls.Increment("hit")
			return rt, nil
		case found:
			metrics.TransportCreateCalls.Increment("miss-gc")
		default:
			metrics.TransportCreateCalls.Increment("miss")
		}
	} else {
		metrics.TransportCreateCalls.Increment("uncacheable")
	}

	rt, stopRotation, err := buildTransport(config)
	if err != nil {
		return nil, err
	}
	if rt == http.DefaultTransport {
		return rt, nil
	}
	if !cacheable && stopRotation == nil {
		// Nothing to share and nothing to clean up.
		return rt, nil
	}

	if !features.FeatureGates().Enabled(features.ClientsAllowTLSCacheGC) {
		// Without GC the rotation goroutine runs for the life of the process.
		if cacheable {
			c.strong[key] = rt
		}
		return rt, nil
	}

	tracked := &collectableTransport{rt: rt}
	if stopRotation != nil {
		// Read the metric now so that a later swap of the global (by tests)
		// does not see this cleanup.
		gcCalls := metrics.TransportCertRotationGCCalls
		runtime.AddCleanup(tracked, func(struct{}) {
			stopRotation()
			gcCalls.Increment()
		}, struct{}{})
	}
	if cacheable {
		ptr := weak.Make(tracked)
		c.weak[key] = ptr
		gcCalls, entries := metrics.TransportCacheGCCalls, metrics.TransportCacheEntries
		runtime.AddCleanup(tracked, func(key tlsCacheKey) {
			c.mu.Lock()
			defer c.mu.Unlock()
			// The entry may already belong to a newer transport.
			if c.weak[key] != ptr {
				gcCalls.Increment("skipped")
				return
			}
			delete(c.weak, key)
			gcCalls.Increment("deleted")
			entries.Observe(c.lenLocked())
		}, key)
	}
	return tracked, nil
}

// lookupLocked returns the cached transport for key. found is true with a
// nil transport when the entry exists but its transport was collected.
func (c *tlsTransportCache) lookupLocked(key tlsCacheKey) (rt http.RoundTripper, found bool) {
	if !features.FeatureGates().Enabled(features.ClientsAllowTLSCacheGC) {
		rt, found = c.strong[key]
		return rt, found
	}
	ptr, found := c.weak[key]
	if !found {
		return nil, false
	}
	if t := ptr.Value(); t != nil {
		return t, true
	}
	return nil, true
}

func (c *tlsTransportCache) lenLocked() int {
	if !features.FeatureGates().Enabled(features.ClientsAllowTLSCacheGC) {
		return len(c.strong)
	}
	return len(c.weak)
}

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

	var dial utilnet.DialFunc
	if config.DialHolder != nil {
		dial = config.DialHolder.Dial
	} else {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}

	// Certificates read from files may be rotated on disk: serve them through
	// a rotatingClientCert that closes connections when they change.
	var stopRotation context.CancelFunc
	if config.TLS.ReloadTLSFiles && tlsConfig != nil && tlsConfig.GetClientCertificate != nil {
		// The cache is a singleton, so one logger name covers all of them.
		rotating := newRotatingClientCert(klog.Background().WithName("tls-transport-cache"), tlsConfig.GetClientCertificate, dial)
		tlsConfig.GetClientCertificate = rotating.GetClientCertificate
		dial = rotating.dialer.DialContext
		ctx, cancel := context.WithCancel(context.Background())
		stopRotation = cancel
		go rotating.run(ctx.Done())
	}

	proxy := http.ProxyFromEnvironment
	if config.Proxy != nil {
		proxy = config.Proxy
	}

	// SetTransportDefaults enables HTTP/2 with health checks (ReadIdleTimeout
	// and PingTimeout, overridable through HTTP2_READ_IDLE_TIMEOUT_SECONDS and
	// HTTP2_PING_TIMEOUT_SECONDS) unless DISABLE_HTTP2 is set.
	httpTransport := utilnet.SetTransportDefaults(&http.Transport{
		Proxy:               proxy,
		TLSHandshakeTimeout: 10 * time.Second,
		TLSClientConfig:     tlsConfig,
		MaxIdleConnsPerHost: idleConnsPerHost,
		DialContext:         dial,
		DisableCompression:  config.DisableCompression,
	})

	if config.TLS.ReloadCAFiles && tlsConfig != nil && tlsConfig.RootCAs != nil && config.TLS.CAFile != "" {
		return newCAReloadingTransport(config.TLS.CAFile, config.TLS.CAData, httpTransport), stopRotation, nil
	}
	return httpTransport, stopRotation, nil
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
