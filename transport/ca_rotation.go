package transport

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"sync"
	"time"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/tools/metrics"
)

// caCheckInterval is how often a CA-reloading transport looks at its CA file.
const caCheckInterval = 5 * time.Minute

// caReloadingTransport sends requests through an *http.Transport whose root
// CAs come from a file. At most once per checkEvery, a request first re-reads
// the file; if its content changed and parses, the transport is replaced by a
// clone trusting the new roots and the old one's idle connections are closed.
// A file that cannot be read, is empty or does not parse keeps the current
// transport.
type caReloadingTransport struct {
	caFile     string
	clock      clock.PassiveClock
	checkEvery time.Duration

	mu          sync.RWMutex // guards the fields below
	transport   *http.Transport
	caData      []byte    // the CA bundle that transport trusts
	lastChecked time.Time // when caFile was last looked at
}

var _ utilnet.RoundTripperWrapper = &caReloadingTransport{}

// newCAReloadingTransport wraps transport, whose TLS roots were built from
// caData, the current content of caFile.
func newCAReloadingTransport(caFile string, caData []byte, transport *http.Transport) *caReloadingTransport {
	c := clock.RealClock{}
	return &caReloadingTransport{
		caFile:      caFile,
		clock:       c,
		checkEvery:  caCheckInterval,
		transport:   transport,
		caData:      caData,
		lastChecked: c.Now(),
	}
}

func (t *caReloadingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.current(req.Context()).RoundTrip(req)
}

// WrappedRoundTripper returns the transport currently in use.
func (t *caReloadingTransport) WrappedRoundTripper() http.RoundTripper {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.transport
}

// current returns the transport to use, checking the CA file first when the
// last check is older than checkEvery.
func (t *caReloadingTransport) current(ctx context.Context) *http.Transport {
	t.mu.RLock()
	fresh := t.clock.Since(t.lastChecked) < t.checkEvery
	rt := t.transport
	t.mu.RUnlock()
	if fresh {
		return rt
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	// Another request may have done the check while we waited for the lock.
	if t.clock.Since(t.lastChecked) >= t.checkEvery {
		t.reloadLocked(ctx)
	}
	return t.transport
}

// reloadLocked re-reads the CA file and swaps the transport when the bundle
// changed. A failed attempt still counts as a check, so a broken file is not
// re-read on every request.
func (t *caReloadingTransport) reloadLocked(ctx context.Context) {
	t.lastChecked = t.clock.Now()
	logger := klog.FromContext(ctx).WithValues("caFile", t.caFile)
	logger.V(4).Info("Checking CA file content")

	data, err := os.ReadFile(t.caFile)
	switch {
	case err != nil:
		logger.Error(err, "Failed to read CA data from file")
		metrics.TransportCAReloads.Increment("failure", "read_error")
		return
	case len(data) == 0:
		logger.Info("CA file empty, skipping transport rotation")
		metrics.TransportCAReloads.Increment("failure", "empty")
		return
	case bytes.Equal(data, t.caData):
		logger.V(4).Info("CA file unchanged, skipping transport rotation")
		metrics.TransportCAReloads.Increment("success", "unchanged")
		return
	}

	roots, err := rootCertPool(data)
	if err != nil {
		logger.Error(err, "Failed to parse CA data from file")
		metrics.TransportCAReloads.Increment("failure", "ca_parse_error")
		return
	}

	next := t.transport.Clone()
	next.TLSClientConfig.RootCAs = roots
	previous := t.transport
	t.transport, t.caData = next, data
	previous.CloseIdleConnections()

	logger.V(4).Info("Transport updated for CA rotation")
	metrics.TransportCAReloads.Increment("success", "updated")
}
