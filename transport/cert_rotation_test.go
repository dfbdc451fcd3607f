package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/klog/v2"
	testingclock "k8s.io/utils/clock/testing"
)

// pipeDialer hands out the client ends of in-memory connections and keeps
// the server ends, so a test can see when the client side gets closed.
type pipeDialer struct {
	mu      sync.Mutex
	servers []net.Conn
}

func (p *pipeDialer) dial(context.Context, string, string) (net.Conn, error) {
	client, server := net.Pipe()
	p.mu.Lock()
	p.servers = append(p.servers, server)
	p.mu.Unlock()
	return client, nil
}

// rotationFixture drives a rotatingClientCert with a fake clock.
type rotationFixture struct {
	r       *rotatingClientCert
	clock   *testingclock.FakeClock
	current atomic.Pointer[tls.Certificate]
	failing atomic.Bool
	loads   chan struct{}
	dialer  *pipeDialer
}

func newRotationFixture(t *testing.T, initial tls.Certificate) *rotationFixture {
	f := &rotationFixture{
		clock:  testingclock.NewFakeClock(time.Now()),
		loads:  make(chan struct{}, 16),
		dialer: &pipeDialer{},
	}
	f.current.Store(&initial)
	load := func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
		defer func() { f.loads <- struct{}{} }()
		if f.failing.Load() {
			return nil, errors.New("cert file unreadable")
		}
		return f.current.Load(), nil
	}
	f.r = newRotatingClientCert(klog.Background(), load, f.dialer.dial)
	f.r.clock = f.clock
	return f
}

// start runs the rotation loop until the test ends.
func (f *rotationFixture) start(t *testing.T) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		f.r.run(stop)
		close(done)
	}()
	t.Cleanup(func() {
		close(stop)
		<-done
	})
}

func (f *rotationFixture) waitLoad(t *testing.T) {
	t.Helper()
	select {
	case <-f.loads:
	case <-time.After(10 * time.Second):
		t.Fatal("certificate was not reloaded")
	}
}

// waitIdle returns once the loop has finished its work and waits on its
// timer again.
func (f *rotationFixture) waitIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !f.clock.HasWaiters() {
		if time.Now().After(deadline) {
			t.Fatal("rotation loop never waited on its timer")
		}
		runtime.Gosched()
	}
}

// stepWhenWaiting advances the fake clock once the loop waits on its timer.
func (f *rotationFixture) stepWhenWaiting(t *testing.T, d time.Duration) {
	t.Helper()
	f.waitIdle(t)
	f.clock.Step(d)
}

// isOpen reports whether the client end of the pipe behind server is open,
// by sending a byte through it.
func isOpen(t *testing.T, client net.Conn, server net.Conn) bool {
	t.Helper()
	go func() { _, _ = client.Write([]byte{1}) }()
	buf := make([]byte, 1)
	_, err := server.Read(buf)
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("unexpected read error %v", err)
	}
	return err == nil
}

func TestRotatingClientCertClosesConnectionsOnChange(t *testing.T) {
	ca := newTestCA(t, "ca")
	alice := ca.clientCert(t, "alice").tlsCertificate(t)
	bob := ca.clientCert(t, "bob").tlsCertificate(t)
	f := newRotationFixture(t, alice)
	f.start(t)
	f.waitLoad(t) // the immediate first load

	conn, err := f.r.dialer.DialContext(context.Background(), "tcp", "apiserver:6443")
	if err != nil {
		t.Fatal(err)
	}
	server := f.dialer.servers[0]

	// A periodic reload of the same certificate keeps connections.
	f.stepWhenWaiting(t, CertCallbackRefreshDuration)
	f.waitLoad(t)
	f.waitIdle(t)
	if !isOpen(t, conn, server) {
		t.Fatal("connection closed although the certificate did not change")
	}

	// A new certificate on disk closes them.
	f.current.Store(&bob)
	f.stepWhenWaiting(t, CertCallbackRefreshDuration)
	f.waitLoad(t)
	f.waitIdle(t)
	if isOpen(t, conn, server) {
		t.Fatal("connection still open after certificate rotation")
	}
	got, err := f.r.GetClientCertificate(nil)
	if err != nil || !sameCertificate(got, &bob) {
		t.Errorf("GetClientCertificate = %v, %v; want the rotated certificate", got, err)
	}
}

func TestRotatingClientCertFirstLoadClosesNothing(t *testing.T) {
	ca := newTestCA(t, "ca")
	f := newRotationFixture(t, ca.clientCert(t, "alice").tlsCertificate(t))
	conn, _ := f.r.dialer.DialContext(context.Background(), "tcp", "x")
	if _, err := f.r.GetClientCertificate(nil); err != nil {
		t.Fatal(err)
	}
	if !isOpen(t, conn, f.dialer.servers[0]) {
		t.Error("the first certificate load closed connections")
	}
}

func TestRotatingClientCertRetriesFailures(t *testing.T) {
	ca := newTestCA(t, "ca")
	f := newRotationFixture(t, ca.clientCert(t, "alice").tlsCertificate(t))
	f.failing.Store(true)
	f.start(t)
	f.waitLoad(t)
	// Failures are retried after 5ms, 10ms, 20ms... not after the full period.
	for _, d := range []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
		f.stepWhenWaiting(t, d)
		f.waitLoad(t)
	}
	if _, err := f.r.GetClientCertificate(nil); err == nil {
		t.Error("GetClientCertificate should report the load error")
	}
	f.waitLoad(t) // the load done by GetClientCertificate
	f.failing.Store(false)
	f.stepWhenWaiting(t, 40*time.Millisecond)
	f.waitLoad(t)
	// Back to the regular period: a short step triggers nothing, the rest
	// of the period does.
	f.stepWhenWaiting(t, 40*time.Millisecond)
	select {
	case <-f.loads:
		t.Error("reloaded before the refresh period after a success")
	default:
	}
	f.stepWhenWaiting(t, CertCallbackRefreshDuration-40*time.Millisecond)
	f.waitLoad(t)
}

func TestSameCertificate(t *testing.T) {
	ca := newTestCA(t, "ca")
	a := ca.clientCert(t, "alice").tlsCertificate(t)
	aAgain := a
	aAgain.Leaf = nil
	withOCSP := a
	withOCSP.OCSPStaple = []byte{1}
	b := ca.clientCert(t, "bob").tlsCertificate(t)
	if !sameCertificate(&a, &aAgain) || !sameCertificate(nil, nil) {
		t.Error("equal certificates reported different")
	}
	if sameCertificate(&a, &b) || sameCertificate(&a, nil) || sameCertificate(&a, &withOCSP) {
		t.Error("different certificates reported equal")
	}
}

func TestCertFileLoaderCachesForASecond(t *testing.T) {
	ca := newTestCA(t, "ca")
	alice, bob := ca.clientCert(t, "alice"), ca.clientCert(t, "bob")
	dir := t.TempDir()
	certFile := writeFile(t, dir, "tls.crt", alice.certPEM)
	keyFile := writeFile(t, dir, "tls.key", alice.keyPEM)
	now := &fakeNow{t: time.Now()}
	l := &certFileLoader{certFile: certFile, keyFile: keyFile, now: now.now}
	l.reloadLocked()

	writeFile(t, dir, "tls.crt", bob.certPEM)
	writeFile(t, dir, "tls.key", bob.keyPEM)
	want := alice.tlsCertificate(t)
	if got, err := l.load(); err != nil || !sameCertificate(got, &want) {
		t.Fatal("files re-read within a second")
	}
	now.step(1500 * time.Millisecond)
	want = bob.tlsCertificate(t)
	if got, err := l.load(); err != nil || !sameCertificate(got, &want) {
		t.Fatal("files not re-read after a second")
	}
	writeFile(t, dir, "tls.key", alice.keyPEM) // mismatched pair
	now.step(1500 * time.Millisecond)
	if _, err := l.load(); err == nil {
		t.Fatal("mismatched key pair accepted")
	}
}

func TestClientCertRotationEndToEnd(t *testing.T) {
	saved := CertCallbackRefreshDuration
	CertCallbackRefreshDuration = 50 * time.Millisecond
	t.Cleanup(func() { CertCallbackRefreshDuration = saved })

	ca := newTestCA(t, "ca")
	srv := newTLSAPIServer(t, ca, ca, nil)
	alice, bob := ca.clientCert(t, "alice"), ca.clientCert(t, "bob")
	dir := t.TempDir()
	cfg := &Config{TLS: TLSConfig{
		CAData:   ca.certPEM,
		CertFile: writeFile(t, dir, "tls.crt", alice.certPEM),
		KeyFile:  writeFile(t, dir, "tls.key", alice.keyPEM),
	}}
	rt, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if user, err := whoAmI(t, rt, srv.URL); err != nil || user != "alice" {
		t.Fatalf("before rotation: %q, %v", user, err)
	}

	// Replace the key first, then the certificate, as a rotation tool
	// writing two files would; transient mismatches must not break things.
	writeFile(t, dir, "tls.key", bob.keyPEM)
	writeFile(t, dir, "tls.crt", bob.certPEM)

	// The loader caches for a second and the rotation loop then closes the
	// live connection; poll until the server sees the new identity.
	deadline := time.Now().Add(15 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		user, err := whoAmI(t, rt, srv.URL)
		if err == nil && user == "bob" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server still sees %q (%v) after the certificate files changed", user, err)
		}
		<-tick.C
	}
}
