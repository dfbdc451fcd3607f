package certificate

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"sync"
	"time"

	certificates "k8s.io/api/certificates/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	clientset "github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/util/cert"
	"github.com/kubeclient/client-go/util/certificate/csr"
	"github.com/kubeclient/client-go/util/keyutil"
)

// ClientsetFunc builds the clientset a Manager files its certificate signing
// requests with, given the current certificate (nil if there is no valid one).
type ClientsetFunc func(current *tls.Certificate) (clientset.Interface, error)

// Config configures NewManager.
type Config struct {
	// ClientsetFn creates the clientset used to file and watch certificate
	// signing requests. It is never called concurrently and is passed the
	// current certificate, if there is a valid one.
	ClientsetFn ClientsetFunc
	// Template is the x509.CertificateRequest template (as for
	// x509.CreateCertificateRequest) for the request of every new key.
	Template *x509.CertificateRequest
	// GetTemplate, if set, is called for the template instead of using
	// Template. A nil result means no certificate can be requested yet.
	GetTemplate func() *x509.CertificateRequest
	// SignerName is the signer asked to sign the certificates.
	SignerName string
	// RequestedCertificateLifetime, if set, fills spec.expirationSeconds of
	// each request. Signers may ignore it.
	RequestedCertificateLifetime *time.Duration
	// Usages are the key usages requested. It is mutually exclusive with
	// GetUsages.
	Usages []certificates.KeyUsage
	// GetUsages returns the key usages to request for a given private key.
	// It is mutually exclusive with Usages.
	GetUsages func(privateKey interface{}) []certificates.KeyUsage
	// CertificateStore persists the current pair and each new one.
	CertificateStore Store
	// BootstrapCertificatePEM and BootstrapKeyPEM are used while the store
	// has no pair; a bootstrap pair is rotated as soon as the manager starts.
	BootstrapCertificatePEM []byte
	// BootstrapKeyPEM is the key of BootstrapCertificatePEM.
	BootstrapKeyPEM []byte `datapolicy:"security-key"`
	// CertificateRotation, if set, observes how many seconds each
	// certificate was in use before it was replaced.
	CertificateRotation Histogram
	// CertificateRenewFailure, if set, counts failed renewals.
	CertificateRenewFailure Counter
	// GenerateKey, if set, generates the private key of each request instead
	// of ECDSA P-256. It must return an *ecdsa.PrivateKey of at least 256 bits
	// or an *rsa.PrivateKey of at least 2048 bits.
	GenerateKey func() (crypto.Signer, error)
	// Name names the manager in logs and errors. It defaults to SignerName,
	// then to "client auth" if Usages include client auth, then to "server".
	Name string
	// Ctx, if set, stops the manager when it is cancelled and supplies its
	// logger; otherwise klog.Background() is used.
	Ctx *context.Context
}

// Manager serves a certificate and replaces it, through the API server,
// before it expires.
type Manager interface {
	// Start begins rotating certificates in the background.
	Start()
	// Stop ends the background rotation.
	Stop()
	// Current is the certificate in use, or nil if none is valid.
	Current() *tls.Certificate
	// ServerHealthy reports whether the last exchange with the API server
	// succeeded; it is false until one has.
	ServerHealthy() bool
}

// Timing of the rotation loop.
const (
	// certificateWaitTimeout bounds how long one request waits for a signer.
	certificateWaitTimeout = 15 * time.Minute
	initialRetryDelay      = 2 * time.Second
	maxRetryDelay          = 5 * time.Minute
)

type manager struct {
	name         string
	logger       klog.Logger
	ctx          context.Context
	cancel       context.CancelFunc
	clock        clock.Clock
	store        Store
	clientsetFn  ClientsetFunc
	getTemplate  func() *x509.CertificateRequest
	getUsages    func(privateKey interface{}) []certificates.KeyUsage
	signerName   string
	lifetime     *time.Duration
	generateKey  func() (crypto.Signer, error)
	rotationHist Histogram
	renewFailure Counter

	// mu guards cert, forceRotation and serverHealthy.
	mu            sync.RWMutex
	cert          *tls.Certificate
	forceRotation bool
	serverHealthy bool

	// clientMu serializes calls to clientsetFn.
	clientMu sync.Mutex

	startOnce sync.Once
	stopOnce  sync.Once
	done      chan struct{} // closed when the rotation loop exits
}

// NewManager returns a Manager for config. It loads the current pair from
// config.CertificateStore, falling back to the bootstrap pair.
func NewManager(config *Config) (Manager, error) {
	if config == nil {
		return nil, errors.New("certificate manager config is nil")
	}
	if config.CertificateStore == nil {
		return nil, errors.New("certificate manager config has no CertificateStore")
	}
	if config.Usages != nil && config.GetUsages != nil {
		return nil, errors.New("cannot specify both Usages and GetUsages")
	}

	parent := context.Background()
	if config.Ctx != nil && *config.Ctx != nil {
		parent = *config.Ctx
	}
	m := &manager{
		name:         managerName(config),
		clock:        clock.RealClock{},
		store:        config.CertificateStore,
		clientsetFn:  config.ClientsetFn,
		signerName:   config.SignerName,
		lifetime:     config.RequestedCertificateLifetime,
		generateKey:  config.GenerateKey,
		rotationHist: config.CertificateRotation,
		renewFailure: config.CertificateRenewFailure,
		done:         make(chan struct{}),
	}
	m.logger = klog.FromContext(parent).WithName(m.name)
	m.ctx, m.cancel = context.WithCancel(parent)

	m.getTemplate = config.GetTemplate
	if m.getTemplate == nil {
		template := config.Template
		m.getTemplate = func() *x509.CertificateRequest { return template }
	}
	m.getUsages = config.GetUsages
	if m.getUsages == nil {
		usages := config.Usages
		m.getUsages = func(interface{}) []certificates.KeyUsage { return usages }
	}
	if m.generateKey == nil {
		m.generateKey = func() (crypto.Signer, error) { return ecdsa.GenerateKey(elliptic.P256(), rand.Reader) }
	}

	current, err := m.store.Current()
	var noKey *NoCertKeyError
	switch {
	case err == nil:
	case errors.As(err, &noKey) && len(config.BootstrapCertificatePEM) > 0 && len(config.BootstrapKeyPEM) > 0:
		pair, perr := tls.X509KeyPair(config.BootstrapCertificatePEM, config.BootstrapKeyPEM)
		if perr != nil {
			return nil, fmt.Errorf("%s: invalid bootstrap certificate/key: %w", m.name, perr)
		}
		if perr := fillLeaf(&pair); perr != nil {
			return nil, fmt.Errorf("%s: invalid bootstrap certificate: %w", m.name, perr)
		}
		current = &pair
		m.forceRotation = true
	case errors.As(err, &noKey):
		m.forceRotation = true
	default:
		return nil, fmt.Errorf("%s: load current certificate: %w", m.name, err)
	}
	m.cert = current
	return m, nil
}

func managerName(config *Config) string {
	switch {
	case config.Name != "":
		return config.Name
	case config.SignerName != "":
		return config.SignerName
	}
	for _, u := range config.Usages {
		if u == certificates.UsageClientAuth {
			return "client auth"
		}
	}
	return "server"
}

// Current returns the current certificate, or nil if there is none or it has
// expired.
func (m *manager) Current() *tls.Certificate {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.cert == nil || m.cert.Leaf == nil || m.clock.Now().After(m.cert.Leaf.NotAfter) {
		return nil
	}
	return m.cert
}

// ServerHealthy reports whether the last exchange with the API server worked.
func (m *manager) ServerHealthy() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.serverHealthy
}

// Start starts the rotation loop in a goroutine owned by the manager; it runs
// until Stop is called or Config.Ctx is cancelled. Later calls do nothing.
func (m *manager) Start() {
	m.startOnce.Do(func() {
		if m.clientsetFn == nil {
			m.logger.Info("Certificate rotation is not enabled, no connection to the apiserver")
			close(m.done)
			return
		}
		go m.run()
	})
}

// Stop ends the rotation loop and waits for it to exit. A manager that was
// never started cannot be started afterwards.
func (m *manager) Stop() {
	m.stopOnce.Do(m.cancel)
	m.startOnce.Do(func() { close(m.done) })
	<-m.done
}

func (m *manager) run() {
	defer close(m.done)
	delay := initialRetryDelay
	for {
		wait := m.untilRotation()
		if wait > 0 {
			m.logger.Info("Waiting for next certificate rotation", "wait", wait)
			if !m.sleep(wait) {
				return
			}
		}
		ok, err := m.rotateCerts()
		if err != nil {
			m.logger.Error(err, "Failed to rotate certificate")
		}
		if ok {
			delay = initialRetryDelay
			continue
		}
		if !m.sleep(delay) {
			return
		}
		if delay *= 2; delay > maxRetryDelay {
			delay = maxRetryDelay
		}
	}
}

// sleep waits for d on the manager's clock; false means the manager stopped.
func (m *manager) sleep(d time.Duration) bool {
	t := m.clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-m.ctx.Done():
		return false
	}
}

// untilRotation returns how long to wait before the next rotation: zero when
// rotation is forced or there is no certificate, otherwise until a random
// point between 70% and 90% of the certificate's validity.
func (m *manager) untilRotation() time.Duration {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.forceRotation || m.cert == nil || m.cert.Leaf == nil {
		return 0
	}
	if template := m.getTemplate(); template != nil && !matchesTemplate(m.cert.Leaf, template) {
		m.logger.Info("Certificate no longer matches the request template, rotating now")
		return 0
	}
	return rotationDeadline(m.cert.Leaf, mathrand.Float64()).Sub(m.clock.Now())
}

// matchesTemplate reports whether leaf carries the subject and alternative
// names template asks for, so that a changed template (say, a new node IP)
// triggers a rotation.
func matchesTemplate(leaf *x509.Certificate, template *x509.CertificateRequest) bool {
	if leaf.Subject.CommonName != template.Subject.CommonName ||
		!sameSet(leaf.Subject.Organization, template.Subject.Organization) ||
		!sameSet(leaf.DNSNames, template.DNSNames) {
		return false
	}
	var leafIPs, wantIPs []string
	for _, ip := range leaf.IPAddresses {
		leafIPs = append(leafIPs, ip.String())
	}
	for _, ip := range template.IPAddresses {
		wantIPs = append(wantIPs, ip.String())
	}
	return sameSet(leafIPs, wantIPs)
}

func sameSet(a, b []string) bool {
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// rotationDeadline is the point at 70% + 20%*jitter of leaf's validity,
// for jitter in [0, 1).
func rotationDeadline(leaf *x509.Certificate, jitter float64) time.Time {
	total := leaf.NotAfter.Sub(leaf.NotBefore)
	return leaf.NotBefore.Add(time.Duration(float64(total) * (0.7 + 0.2*jitter)))
}

// rotateCerts requests, waits for and stores one new certificate. It returns
// false when no template is available or the attempt failed.
func (m *manager) rotateCerts() (bool, error) {
	template := m.getTemplate()
	if template == nil {
		m.logger.Info("No certificate template available, cannot rotate yet")
		return false, nil
	}
	ok, err := m.requestAndStore(template)
	if err != nil && m.renewFailure != nil {
		m.renewFailure.Inc()
	}
	return ok, err
}

func (m *manager) requestAndStore(template *x509.CertificateRequest) (bool, error) {
	key, err := m.generateKey()
	if err != nil {
		return false, fmt.Errorf("%s: generate private key: %w", m.name, err)
	}
	if err := checkKeyStrength(key); err != nil {
		return false, fmt.Errorf("%s: %w", m.name, err)
	}
	csrPEM, err := cert.MakeCSRFromTemplate(key, template)
	if err != nil {
		return false, fmt.Errorf("%s: create certificate request: %w", m.name, err)
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return false, fmt.Errorf("%s: encode private key: %w", m.name, err)
	}

	client, err := m.clientset()
	if err != nil {
		return false, fmt.Errorf("%s: create clientset: %w", m.name, err)
	}
	reqName, reqUID, err := csr.RequestCertificateWithContext(m.ctx, client, csrPEM, "", m.signerName, m.lifetime, m.getUsages(key), key)
	if err != nil {
		m.setServerHealth(err)
		return false, fmt.Errorf("%s: %w", m.name, err)
	}
	m.setServerHealth(nil)

	ctx, cancel := context.WithTimeout(m.ctx, certificateWaitTimeout)
	defer cancel()
	certPEM, err := csr.WaitForCertificate(ctx, client, reqName, reqUID)
	if err != nil {
		return false, fmt.Errorf("%s: certificate request %q was not signed: %w", m.name, reqName, err)
	}

	pair, err := m.store.Update(certPEM, keyPEM)
	if err != nil {
		return false, fmt.Errorf("%s: store new certificate: %w", m.name, err)
	}
	m.mu.Lock()
	old := m.cert
	m.cert = pair
	m.forceRotation = false
	m.mu.Unlock()
	if m.rotationHist != nil && old != nil && old.Leaf != nil {
		m.rotationHist.Observe(m.clock.Since(old.Leaf.NotBefore).Seconds())
	}
	m.logger.Info("Rotated certificate", "request", reqName, "notAfter", pair.Leaf.NotAfter)
	return true, nil
}

// clientset calls clientsetFn, never concurrently, with the current
// certificate if it is still valid.
func (m *manager) clientset() (clientset.Interface, error) {
	m.clientMu.Lock()
	defer m.clientMu.Unlock()
	return m.clientsetFn(m.Current())
}

// setServerHealth records whether the server answered: any API status (even
// an error such as Forbidden) counts as an answer.
func (m *manager) setServerHealth(err error) {
	healthy := err == nil
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		healthy = true
	}
	m.mu.Lock()
	m.serverHealthy = healthy
	m.mu.Unlock()
}

func checkKeyStrength(key crypto.Signer) error {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve.Params().BitSize < 256 {
			return fmt.Errorf("ECDSA key of %d bits is too weak, at least 256 are required", k.Curve.Params().BitSize)
		}
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return fmt.Errorf("RSA key of %d bits is too weak, at least 2048 are required", k.N.BitLen())
		}
	default:
		return fmt.Errorf("unsupported private key type %T, only *ecdsa.PrivateKey and *rsa.PrivateKey are", key)
	}
	return nil
}
