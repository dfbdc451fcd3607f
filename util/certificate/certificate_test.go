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
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	certificates "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	testingclock "k8s.io/utils/clock/testing"

	clientset "github.com/kubeclient/client-go/kubernetes"
	"github.com/kubeclient/client-go/kubernetes/fake"
	"github.com/kubeclient/client-go/util/keyutil"
)

// testCA signs certificates for the tests.
type testCA struct {
	key  *ecdsa.PrivateKey
	cert *x509.Certificate
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	return &testCA{key: key, cert: c}
}

// issue returns a PEM certificate for pub valid over [notBefore, notAfter].
func (ca *testCA) issue(t *testing.T, cn string, pub crypto.PublicKey, notBefore, notAfter time.Time) []byte {
	t.Helper()
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: cn},
		NotBefore: notBefore, NotAfter: notAfter,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, pub, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// pair returns a fresh certificate and key in PEM.
func (ca *testCA) pair(t *testing.T, cn string, notBefore, notAfter time.Time) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err = keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	return ca.issue(t, cn, &key.PublicKey, notBefore, notAfter), keyPEM
}

// runSigner approves and issues every CSR created in client until ctx ends.
func runSigner(t *testing.T, ctx context.Context, client *fake.Clientset, ca *testCA) {
	t.Helper()
	csrs := client.CertificatesV1().CertificateSigningRequests()
	w, err := csrs.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				if ev.Type != watch.Added {
					continue
				}
				req := ev.Object.(*certificates.CertificateSigningRequest).DeepCopy()
				block, _ := pem.Decode(req.Spec.Request)
				parsed, err := x509.ParseCertificateRequest(block.Bytes)
				if err != nil {
					t.Error(err)
					return
				}
				req.Status.Conditions = []certificates.CertificateSigningRequestCondition{{Type: certificates.CertificateApproved, Status: corev1.ConditionTrue}}
				req.Status.Certificate = ca.issue(t, parsed.Subject.CommonName, parsed.PublicKey, time.Now().Add(-time.Minute), time.Now().Add(time.Hour))
				if _, err := csrs.UpdateStatus(ctx, req, metav1.UpdateOptions{}); err != nil && ctx.Err() == nil {
					t.Error(err)
				}
			}
		}
	}()
}

func TestFileStore(t *testing.T) {
	ca := newTestCA(t)
	dir := t.TempDir()
	store, err := NewFileStore("kubelet-client", dir, dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.Current()
	var noKey *NoCertKeyError
	if !errors.As(err, &noKey) || !strings.Contains(noKey.Error(), "kubelet-client-current.pem") {
		t.Fatalf("Current on an empty store = %v, want a NoCertKeyError naming the paths tried", err)
	}

	certPEM, keyPEM := ca.pair(t, "first", time.Now(), time.Now().Add(time.Hour))
	updated, err := store.Update(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	if updated.Leaf == nil || updated.Leaf.Subject.CommonName != "first" {
		t.Fatalf("Update returned %+v", updated.Leaf)
	}
	if store.CurrentPath() != filepath.Join(dir, "kubelet-client-current.pem") {
		t.Errorf("CurrentPath = %s", store.CurrentPath())
	}
	target, err := os.Readlink(store.CurrentPath())
	if err != nil || !strings.HasPrefix(filepath.Base(target), "kubelet-client-") {
		t.Fatalf("current link -> %q, %v", target, err)
	}
	if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("pair file %v, %v", info, err)
	}
	current, err := store.Current()
	if err != nil || current.Leaf.Subject.CommonName != "first" {
		t.Fatalf("Current = %v, %v", current, err)
	}

	if _, err := store.Update([]byte("junk"), keyPEM); err == nil {
		t.Error("Update accepted an invalid certificate")
	}

	// An update interrupted before the rename is finished by the next store.
	if err := os.Rename(store.CurrentPath(), filepath.Join(dir, "kubelet-client-updated.pem")); err != nil {
		t.Fatal(err)
	}
	again, err := NewFileStore("kubelet-client", dir, dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := again.Current(); err != nil || c.Leaf.Subject.CommonName != "first" {
		t.Fatalf("after recovery Current = %v, %v", c, err)
	}
}

func TestFileStoreFallbacks(t *testing.T) {
	ca := newTestCA(t)
	dir := t.TempDir()
	certPEM, keyPEM := ca.pair(t, "explicit", time.Now(), time.Now().Add(time.Hour))
	certFile, keyFile := filepath.Join(dir, "explicit.crt"), filepath.Join(dir, "explicit.key")
	os.WriteFile(certFile, certPEM, 0o600)
	os.WriteFile(keyFile, keyPEM, 0o600)
	prefCert, prefKey := ca.pair(t, "prefixed", time.Now(), time.Now().Add(time.Hour))
	os.WriteFile(filepath.Join(dir, "kubelet.crt"), prefCert, 0o600)
	os.WriteFile(filepath.Join(dir, "kubelet.key"), prefKey, 0o600)

	cases := []struct {
		name              string
		certFile, keyFile string
		want              string
	}{
		{"explicit files win over prefix files", certFile, keyFile, "explicit"},
		{"prefix files", "", "", "prefixed"},
		{"missing explicit files fall through", filepath.Join(dir, "none.crt"), filepath.Join(dir, "none.key"), "prefixed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store, err := NewFileStore("kubelet", dir, dir, tc.certFile, tc.keyFile)
			if err != nil {
				t.Fatal(err)
			}
			c, err := store.Current()
			if err != nil || c.Leaf.Subject.CommonName != tc.want {
				t.Fatalf("Current = %v, %v; want %s", c, err, tc.want)
			}
		})
	}
}

func TestRotationDeadline(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	leaf := &x509.Certificate{NotBefore: start, NotAfter: start.Add(100 * time.Hour)}
	for _, tc := range []struct {
		jitter float64
		want   time.Duration
	}{{0, 70 * time.Hour}, {0.5, 80 * time.Hour}, {0.999999, 90 * time.Hour}} {
		got := rotationDeadline(leaf, tc.jitter).Sub(start)
		if d := got - tc.want; d < -time.Second || d > time.Second {
			t.Errorf("jitter %v: deadline after %v, want %v", tc.jitter, got, tc.want)
		}
	}
}

type memStore struct {
	cert *tls.Certificate
	err  error
}

func (s *memStore) Current() (*tls.Certificate, error) { return s.cert, s.err }
func (s *memStore) Update(c, k []byte) (*tls.Certificate, error) {
	pair, err := tls.X509KeyPair(c, k)
	if err != nil {
		return nil, err
	}
	if err := fillLeaf(&pair); err != nil {
		return nil, err
	}
	s.cert, s.err = &pair, nil
	return &pair, nil
}

type counter struct{ n atomic.Int64 }

func (c *counter) Inc() { c.n.Add(1) }

type histogram struct{ observed chan float64 }

func (h *histogram) Observe(v float64) { h.observed <- v }

func TestManagerRotatesBootstrapCertificate(t *testing.T) {
	ca := newTestCA(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := fake.NewClientset()
	runSigner(t, ctx, client, ca)

	bootCert, bootKey := ca.pair(t, "bootstrap", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	dir := t.TempDir()
	store, err := NewFileStore("kubelet-client", dir, dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var clientsetCalls atomic.Int64
	hist := &histogram{observed: make(chan float64, 1)}
	m, err := NewManager(&Config{
		ClientsetFn: func(current *tls.Certificate) (clientset.Interface, error) {
			if current == nil || current.Leaf.Subject.CommonName != "bootstrap" {
				t.Errorf("clientset built with %v, want the bootstrap certificate", current)
			}
			clientsetCalls.Add(1)
			return client, nil
		},
		Template:                &x509.CertificateRequest{Subject: pkix.Name{CommonName: "system:node:n1"}},
		SignerName:              certificates.KubeAPIServerClientKubeletSignerName,
		GetUsages:               DefaultKubeletClientGetUsages,
		CertificateStore:        store,
		BootstrapCertificatePEM: bootCert,
		BootstrapKeyPEM:         bootKey,
		CertificateRotation:     hist,
		Ctx:                     &ctx,
	})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Current(); c == nil || c.Leaf.Subject.CommonName != "bootstrap" {
		t.Fatalf("before Start, Current = %v", c)
	}
	m.Start()
	defer m.Stop()

	select {
	case secs := <-hist.observed:
		if secs < 3500 {
			t.Errorf("bootstrap certificate lifetime observed as %vs", secs)
		}
	case <-ctx.Done():
		t.Fatal("certificate was never rotated")
	}
	if c := m.Current(); c == nil || c.Leaf.Subject.CommonName != "system:node:n1" {
		t.Fatalf("after rotation Current = %v", c)
	}
	if !m.ServerHealthy() {
		t.Error("ServerHealthy = false after a successful rotation")
	}
	stored, err := store.Current()
	if err != nil || stored.Leaf.Subject.CommonName != "system:node:n1" {
		t.Fatalf("store holds %v, %v", stored, err)
	}
	list, _ := client.CertificatesV1().CertificateSigningRequests().List(ctx, metav1.ListOptions{})
	if len(list.Items) != 1 || list.Items[0].Spec.Usages[1] != certificates.UsageClientAuth || len(list.Items[0].Spec.Usages) != 2 {
		t.Fatalf("CSRs filed: %+v", list.Items)
	}
	if clientsetCalls.Load() != 1 {
		t.Errorf("ClientsetFn called %d times", clientsetCalls.Load())
	}
}

func TestManagerCurrentExpiresWithClock(t *testing.T) {
	ca := newTestCA(t)
	now := time.Now()
	certPEM, keyPEM := ca.pair(t, "short", now.Add(-time.Minute), now.Add(time.Hour))
	store := &memStore{}
	if _, err := store.Update(certPEM, keyPEM); err != nil {
		t.Fatal(err)
	}
	mgr, err := NewManager(&Config{CertificateStore: store, Usages: []certificates.KeyUsage{certificates.UsageServerAuth}})
	if err != nil {
		t.Fatal(err)
	}
	m := mgr.(*manager)
	clk := testingclock.NewFakeClock(now)
	m.clock = clk
	if m.Current() == nil {
		t.Fatal("valid certificate not returned")
	}
	if wait := m.untilRotation(); wait < 41*time.Minute || wait > 55*time.Minute {
		t.Errorf("rotation scheduled in %v, want 70-90%% of the lifetime", wait)
	}
	m.getTemplate = func() *x509.CertificateRequest {
		return &x509.CertificateRequest{Subject: pkix.Name{CommonName: "short"}, DNSNames: []string{"new.example.com"}}
	}
	if wait := m.untilRotation(); wait != 0 {
		t.Errorf("template with a new DNS name: rotation in %v, want now", wait)
	}
	m.getTemplate = func() *x509.CertificateRequest {
		return &x509.CertificateRequest{Subject: pkix.Name{CommonName: "short"}}
	}
	if wait := m.untilRotation(); wait == 0 {
		t.Error("matching template forced a rotation")
	}
	clk.Step(2 * time.Hour)
	if m.Current() != nil {
		t.Fatal("expired certificate returned")
	}
	if m.name != "server" {
		t.Errorf("default name %q", m.name)
	}
	m.Start() // no ClientsetFn: rotation disabled, Start and Stop return at once
	m.Stop()
}

func TestManagerRejectsWeakKeysAndCountsFailures(t *testing.T) {
	failures := &counter{}
	mgr, err := NewManager(&Config{
		CertificateStore:        &memStore{err: func() error { e := NoCertKeyError("none"); return &e }()},
		ClientsetFn:             func(*tls.Certificate) (clientset.Interface, error) { return fake.NewClientset(), nil },
		Template:                &x509.CertificateRequest{Subject: pkix.Name{CommonName: "x"}},
		Usages:                  []certificates.KeyUsage{certificates.UsageClientAuth},
		CertificateRenewFailure: failures,
		GenerateKey:             func() (crypto.Signer, error) { return rsa.GenerateKey(rand.Reader, 1024) },
	})
	if err != nil {
		t.Fatal(err)
	}
	m := mgr.(*manager)
	if m.name != "client auth" {
		t.Errorf("default name %q", m.name)
	}
	ok, err := m.rotateCerts()
	if ok || err == nil || !strings.Contains(err.Error(), "too weak") {
		t.Fatalf("rotateCerts = %v, %v", ok, err)
	}
	if failures.n.Load() != 1 {
		t.Errorf("renew failures counted %d", failures.n.Load())
	}
	m.getTemplate = func() *x509.CertificateRequest { return nil }
	if ok, err := m.rotateCerts(); ok || err != nil {
		t.Errorf("without a template rotateCerts = %v, %v", ok, err)
	}
}

func TestNewManagerErrors(t *testing.T) {
	usages := []certificates.KeyUsage{certificates.UsageClientAuth}
	cases := []struct {
		name   string
		config *Config
		want   string
	}{
		{"nil", nil, "nil"},
		{"no store", &Config{Usages: usages}, "CertificateStore"},
		{"both usages", &Config{CertificateStore: &memStore{}, Usages: usages, GetUsages: DefaultKubeletServingGetUsages}, "both Usages and GetUsages"},
		{"store error", &Config{CertificateStore: &memStore{err: errors.New("disk on fire")}, Usages: usages}, "disk on fire"},
		{"bad bootstrap", &Config{
			CertificateStore:        &memStore{err: func() error { e := NoCertKeyError("none"); return &e }()},
			BootstrapCertificatePEM: []byte("junk"), BootstrapKeyPEM: []byte("junk"), Name: "boot",
		}, "boot: invalid bootstrap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewManager(tc.config)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestDefaultUsages(t *testing.T) {
	rsaKey := &rsa.PrivateKey{}
	ecKey := &ecdsa.PrivateKey{}
	if u := DefaultKubeletServingGetUsages(rsaKey); len(u) != 3 || u[1] != certificates.UsageKeyEncipherment || u[2] != certificates.UsageServerAuth {
		t.Errorf("serving RSA usages %v", u)
	}
	if u := DefaultKubeletServingGetUsages(ecKey); len(u) != 2 || u[1] != certificates.UsageServerAuth {
		t.Errorf("serving ECDSA usages %v", u)
	}
	if u := DefaultKubeletClientGetUsages(rsaKey); len(u) != 3 || u[2] != certificates.UsageClientAuth {
		t.Errorf("client RSA usages %v", u)
	}
	if u := DefaultKubeletClientGetUsages(ecKey); len(u) != 2 || u[1] != certificates.UsageClientAuth {
		t.Errorf("client ECDSA usages %v", u)
	}
}
