package transport

import (
	"bytes"
	"crypto/tls"
	"reflect"
	"slices"
	"sync"
	"time"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/kubeclient/client-go/util/connrotation"
)

// CertCallbackRefreshDuration is how often a transport whose client
// certificate comes from files checks them for a new certificate in the
// background. Tests may lower it to speed up rotation.
var CertCallbackRefreshDuration = 5 * time.Minute

// certRetryInitialDelay is the first wait before retrying a failed background
// certificate load; the wait doubles on each further failure, up to the
// refresh period.
const certRetryInitialDelay = 5 * time.Millisecond

// rotatingClientCert serves the client certificate of a transport and closes
// the transport's connections when the certificate changes, so that new
// connections authenticate with the new certificate.
//
// The goroutine started by run owns the periodic reload; it stops when the
// channel given to run is closed. GetClientCertificate may be called
// concurrently from TLS handshakes.
type rotatingClientCert struct {
	logger klog.Logger
	clock  clock.Clock
	period time.Duration // how often run reloads the certificate
	load   func(*tls.CertificateRequestInfo) (*tls.Certificate, error)
	dialer *connrotation.Dialer

	mu      sync.Mutex // guards current
	current *tls.Certificate
}

// newRotatingClientCert returns a rotatingClientCert that loads certificates
// with load and opens connections with dial, tracking them so they can be
// closed on rotation.
func newRotatingClientCert(logger klog.Logger, load func(*tls.CertificateRequestInfo) (*tls.Certificate, error), dial utilnet.DialFunc) *rotatingClientCert {
	return &rotatingClientCert{
		logger: logger,
		clock:  clock.RealClock{},
		period: CertCallbackRefreshDuration,
		load:   load,
		dialer: connrotation.NewDialer(connrotation.DialFunc(dial)),
	}
}

// GetClientCertificate is the tls.Config callback: it loads the current
// certificate, rotating connections if it changed.
func (r *rotatingClientCert) GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	return r.refresh()
}

// refresh loads the certificate and, when it differs from the one served so
// far, swaps it in and closes every connection opened through r.dialer. The
// very first certificate is not a rotation and closes nothing.
func (r *rotatingClientCert) refresh() (*tls.Certificate, error) {
	cert, err := r.load(nil)
	if err != nil {
		return nil, err
	}

	r.mu.Lock()
	previous := r.current
	if sameCertificate(previous, cert) {
		r.mu.Unlock()
		return previous, nil
	}
	r.current = cert
	r.mu.Unlock()

	if previous != nil {
		r.logger.V(1).Info("Certificate rotation detected, shutting down client connections to start using new credentials")
		r.dialer.CloseAll()
	}
	return cert, nil
}

// run reloads the certificate right away and then every period (the value
// of CertCallbackRefreshDuration when r was created) until stop is closed. A
// failed load is retried with exponential backoff.
func (r *rotatingClientCert) run(stop <-chan struct{}) {
	defer utilruntime.HandleCrashWithLogger(r.logger)
	r.logger.V(3).Info("Starting client certificate rotation controller")
	defer r.logger.V(3).Info("Shutting down client certificate rotation controller")

	period := r.period
	retry := certRetryInitialDelay
	for {
		wait := period
		if _, err := r.refresh(); err != nil {
			utilruntime.HandleErrorWithLogger(r.logger, err, "Loading client cert failed")
			wait = min(retry, period)
			retry *= 2
		} else {
			retry = certRetryInitialDelay
		}

		timer := r.clock.NewTimer(wait)
		select {
		case <-stop:
			timer.Stop()
			return
		case <-timer.C():
		}
	}
}

// sameCertificate compares two certificates by their chain, private key,
// SCTs and OCSP staple. Leaf is ignored since it may be filled in lazily.
func sameCertificate(a, b *tls.Certificate) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.EqualFunc(a.Certificate, b.Certificate, bytes.Equal) &&
		reflect.DeepEqual(a.PrivateKey, b.PrivateKey) &&
		slices.EqualFunc(a.SignedCertificateTimestamps, b.SignedCertificateTimestamps, bytes.Equal) &&
		bytes.Equal(a.OCSPStaple, b.OCSPStaple)
}
