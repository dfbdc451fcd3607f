package transport

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"
)

// DebugWrappers wraps rt with a debugging round tripper whose output depends
// on the verbosity of each request's context logger, if the global klog
// verbosity is at least 6. Otherwise it returns rt unchanged.
func DebugWrappers(rt http.RoundTripper) http.RoundTripper {
	if klog.V(6).Enabled() {
		rt = NewDebuggingRoundTripper(rt, DebugByContext)
	}
	return rt
}

// DebugLevel selects one kind of information logged by the round tripper of
// NewDebuggingRoundTripper.
type DebugLevel int

const (
	// DebugJustURL logs the method and URL of each request.
	DebugJustURL DebugLevel = iota
	// DebugURLTiming logs method, URL, status and duration of each request.
	DebugURLTiming
	// DebugCurlCommand logs a curl command equivalent to the request.
	DebugCurlCommand
	// DebugRequestHeaders logs the request headers.
	DebugRequestHeaders
	// DebugResponseStatus logs the response status.
	DebugResponseStatus
	// DebugResponseHeaders logs the response headers.
	DebugResponseHeaders
	// DebugDetailedTiming logs how long DNS lookup, dialing, the TLS
	// handshake, getting a connection and server processing took.
	DebugDetailedTiming
	// DebugByContext adds the information matching the verbosity of the
	// logger in each request's context: 6 for URL timing, 7 adding request
	// headers and response status, 8 adding response headers, 9 for the
	// curl command and detailed timing. It may be combined with the other
	// levels, which are then always logged.
	DebugByContext
)

// debugMask is a set of DebugLevel values, one bit each.
type debugMask int

func (m debugMask) has(l DebugLevel) bool { return m&(1<<l) != 0 }

func maskOf(levels ...DebugLevel) debugMask {
	var m debugMask
	for _, l := range levels {
		m |= 1 << l
	}
	return m
}

// What each context verbosity adds for DebugByContext. V(7) logs less about
// the response than V(6) on purpose: the request line already names the
// method and URL.
var (
	contextLevelsV6 = maskOf(DebugURLTiming)
	contextLevelsV7 = maskOf(DebugJustURL, DebugRequestHeaders, DebugResponseStatus)
	contextLevelsV8 = contextLevelsV7 | maskOf(DebugResponseHeaders)
	contextLevelsV9 = maskOf(DebugCurlCommand, DebugURLTiming, DebugDetailedTiming, DebugResponseHeaders)
)

// debuggingRoundTripper logs requests and responses as selected by levels.
type debuggingRoundTripper struct {
	next   http.RoundTripper
	levels debugMask
}

var _ utilnet.RoundTripperWrapper = &debuggingRoundTripper{}

// NewDebuggingRoundTripper returns a round tripper that logs what levels
// select about each request through the klog logger of the request context.
// Credentials in Authorization headers are always masked.
func NewDebuggingRoundTripper(rt http.RoundTripper, levels ...DebugLevel) http.RoundTripper {
	return &debuggingRoundTripper{next: rt, levels: maskOf(levels...)}
}

func (d *debuggingRoundTripper) CancelRequest(req *http.Request) {
	cancelThrough(d.next, req)
}

func (d *debuggingRoundTripper) WrappedRoundTripper() http.RoundTripper {
	return d.next
}

// loggerAndLevels returns the logger to log through and the effective set of
// levels for a request whose context logger is logger. Fixed levels log at
// V(0); DebugByContext logs at the highest enabled verbosity from 9 to 6.
func (d *debuggingRoundTripper) loggerAndLevels(logger klog.Logger) (klog.Logger, debugMask) {
	levels := d.levels
	if !levels.has(DebugByContext) {
		return logger, levels
	}
	for _, v := range []struct {
		verbosity int
		adds      debugMask
	}{{9, contextLevelsV9}, {8, contextLevelsV8}, {7, contextLevelsV7}, {6, contextLevelsV6}} {
		if l := logger.V(v.verbosity); l.Enabled() {
			return l, levels | v.adds
		}
	}
	return logger, levels
}

func (d *debuggingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	logger, levels := d.loggerAndLevels(klog.FromContext(req.Context()))
	verb, reqURL := req.Method, req.URL.String()

	var kvs []any
	if levels.has(DebugJustURL) {
		kvs = append(kvs, "verb", verb, "url", reqURL)
	}
	if levels.has(DebugCurlCommand) {
		kvs = append(kvs, "curlCommand", curlCommand(verb, reqURL, req.Header))
	}
	if levels.has(DebugRequestHeaders) {
		kvs = append(kvs, "headers", maskedHeaders(req.Header))
	}
	if len(kvs) > 0 {
		logger.Info("Request", kvs...)
	}

	var timing *connectionTiming
	if levels.has(DebugDetailedTiming) {
		timing = &connectionTiming{logger: logger}
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), timing.trace()))
	}

	start := time.Now()
	resp, err := d.next.RoundTrip(req)
	elapsed := time.Since(start)

	var status string
	var respHeaders http.Header
	if err == nil && resp != nil {
		status, respHeaders = resp.Status, resp.Header
	}

	kvs = nil
	if levels.has(DebugURLTiming) {
		kvs = append(kvs, "verb", verb, "url", reqURL)
	}
	if levels.has(DebugURLTiming) || levels.has(DebugResponseStatus) {
		kvs = append(kvs, "status", status)
	}
	if levels.has(DebugResponseHeaders) {
		kvs = append(kvs, "headers", maskedHeaders(respHeaders))
	}
	if levels.has(DebugURLTiming) || levels.has(DebugDetailedTiming) || levels.has(DebugResponseStatus) {
		kvs = append(kvs, "milliseconds", elapsed.Milliseconds())
	}
	if timing != nil {
		kvs = append(kvs, timing.keysAndValues()...)
	}
	if len(kvs) > 0 {
		logger.Info("Response", kvs...)
	}
	return resp, err
}

// connectionTiming collects the durations of the phases of one request from
// an httptrace.ClientTrace. The trace callbacks may run on other goroutines
// than the round tripper, so mu guards every field.
type connectionTiming struct {
	logger klog.Logger

	mu                                                      sync.Mutex
	dnsStart, dialStart, tlsStart, getConnAt, wroteAt       time.Time
	host                                                    string
	dns, dial, tlsHandshake, getConnection, serverFirstByte time.Duration
	reused                                                  bool
}

func (t *connectionTiming) trace() *httptrace.ClientTrace {
	locked := func(f func()) {
		t.mu.Lock()
		defer t.mu.Unlock()
		f()
	}
	return &httptrace.ClientTrace{
		DNSStart: func(info httptrace.DNSStartInfo) {
			locked(func() { t.dnsStart, t.host = time.Now(), info.Host })
		},
		DNSDone: func(info httptrace.DNSDoneInfo) {
			locked(func() {
				t.dns = time.Since(t.dnsStart)
				t.logger.Info("HTTP Trace: DNS Lookup resolved", "host", t.host, "address", info.Addrs)
			})
		},
		ConnectStart: func(network, addr string) {
			locked(func() { t.dialStart = time.Now() })
		},
		ConnectDone: func(network, addr string, err error) {
			locked(func() {
				t.dial = time.Since(t.dialStart)
				if err != nil {
					t.logger.Info("HTTP Trace: Dial failed", "network", network, "address", addr, "err", err)
				} else {
					t.logger.Info("HTTP Trace: Dial succeed", "network", network, "address", addr)
				}
			})
		},
		TLSHandshakeStart: func() {
			locked(func() { t.tlsStart = time.Now() })
		},
		TLSHandshakeDone: func(tls.ConnectionState, error) {
			locked(func() { t.tlsHandshake = time.Since(t.tlsStart) })
		},
		GetConn: func(string) {
			locked(func() { t.getConnAt = time.Now() })
		},
		GotConn: func(info httptrace.GotConnInfo) {
			locked(func() { t.getConnection, t.reused = time.Since(t.getConnAt), info.Reused })
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			locked(func() { t.wroteAt = time.Now() })
		},
		GotFirstResponseByte: func() {
			locked(func() { t.serverFirstByte = time.Since(t.wroteAt) })
		},
	}
}

// keysAndValues returns the collected durations as log key/value pairs.
func (t *connectionTiming) keysAndValues() []any {
	t.mu.Lock()
	defer t.mu.Unlock()
	var kvs []any
	if t.reused {
		kvs = append(kvs, "getConnectionMilliseconds", t.getConnection.Milliseconds())
	} else {
		kvs = append(kvs,
			"dnsLookupMilliseconds", t.dns.Milliseconds(),
			"dialMilliseconds", t.dial.Milliseconds(),
			"tlsHandshakeMilliseconds", t.tlsHandshake.Milliseconds(),
		)
	}
	if t.serverFirstByte != 0 {
		kvs = append(kvs, "serverProcessingMilliseconds", t.serverFirstByte.Milliseconds())
	}
	return kvs
}

// curlCommand renders a request (without its body) as a curl command line.
// Credentials are masked. The trailing newline makes the text logger print
// it as a readable multi-line value.
func curlCommand(verb, url string, header http.Header) string {
	var b strings.Builder
	fmt.Fprintf(&b, "curl -v -X%s ", verb)
	for name, values := range header {
		for _, value := range values {
			fmt.Fprintf(&b, " -H %q", name+": "+maskValue(name, value))
		}
	}
	fmt.Fprintf(&b, " '%s'\n", url)
	return b.String()
}

// authSchemesShown are the Authorization schemes whose name is logged; for
// any other scheme the whole value is masked, since it might be a secret.
var authSchemesShown = map[string]bool{"bearer": true, "basic": true, "negotiate": true}

// maskValue hides the credentials of an Authorization header value, keeping
// a well-known scheme name ("Bearer <masked>"). Other headers are returned
// unchanged.
func maskValue(name, value string) string {
	if !strings.EqualFold(name, "Authorization") || value == "" {
		return value
	}
	scheme := value
	if i := strings.IndexByte(value, ' '); i > 0 {
		scheme = value[:i]
	}
	if !authSchemesShown[strings.ToLower(scheme)] {
		return "<masked>"
	}
	if len(value) > len(scheme)+1 {
		return scheme + " <masked>"
	}
	return scheme
}

// headersMap is a header set prepared for logging: values are already masked.
// The text logger prints it sorted, one "Name: value" line per value;
// structured loggers get the map.
type headersMap http.Header

var (
	_ fmt.Stringer   = headersMap{}
	_ logr.Marshaler = headersMap{}
)

// maskedHeaders copies header with Authorization credentials masked. Masking
// happens before the logger sees the value, whatever the logger does with it.
func maskedHeaders(header http.Header) headersMap {
	out := make(headersMap, len(header))
	for name, values := range header {
		masked := make([]string, len(values))
		for i, v := range values {
			masked[i] = maskValue(name, v)
		}
		out[name] = masked
	}
	return out
}

func (h headersMap) String() string {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		for _, v := range h[name] {
			b.WriteString(name)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// MarshalLog hands structured loggers a plain map.
func (h headersMap) MarshalLog() any { return map[string][]string(h) }
