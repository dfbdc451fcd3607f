package transport

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// testCA is a certificate authority generated for one test.
type testCA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
}

// keyPair is a PEM encoded certificate and private key.
type keyPair struct {
	certPEM, keyPEM []byte
}

var serialNumber atomic.Int64

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serialNumber.Add(1)),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue signs a leaf certificate for commonName. Server certificates get the
// given DNS names and IPs as subject alternative names.
func (ca *testCA) issue(t *testing.T, commonName string, server bool, dnsNames []string, ips []net.IP) keyPair {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	usage := x509.ExtKeyUsageClientAuth
	if server {
		usage = x509.ExtKeyUsageServerAuth
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serialNumber.Add(1)),
		Subject:      pkix.Name{CommonName: commonName, Organization: []string{"system:masters"}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     dnsNames,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return keyPair{
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}
}

func (ca *testCA) servingCert(t *testing.T) keyPair {
	return ca.issue(t, "kube-apiserver", true, []string{"localhost", "kubernetes.default.svc"}, []net.IP{net.ParseIP("127.0.0.1"), net.IPv6loopback})
}

func (ca *testCA) clientCert(t *testing.T, user string) keyPair {
	return ca.issue(t, user, false, nil, nil)
}

func (kp keyPair) tlsCertificate(t *testing.T) tls.Certificate {
	t.Helper()
	cert, err := tls.X509KeyPair(kp.certPEM, kp.keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// writeFile writes data to name inside dir and returns the path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// whoAmIStatus is the body of the test API server: a metav1.Status whose
// message names the authenticated client certificate (or "anonymous").
func whoAmIHandler(w http.ResponseWriter, r *http.Request) {
	user := "anonymous"
	if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		user = r.TLS.PeerCertificates[0].Subject.CommonName
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(&metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusSuccess,
		Message:  user,
		Code:     http.StatusOK,
	})
}

// newTLSAPIServer starts an HTTPS server presenting a certificate of
// serverCA. When clientCA is non-nil, client certificates signed by it are
// required and verified. The handler reports the client identity.
// Each configure function runs on the server before it starts.
func newTLSAPIServer(t *testing.T, serverCA, clientCA *testCA, handler http.Handler, configure ...func(*httptest.Server)) *httptest.Server {
	t.Helper()
	if handler == nil {
		handler = http.HandlerFunc(whoAmIHandler)
	}
	srv := httptest.NewUnstartedServer(handler)
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // failed handshakes are expected
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{serverCA.servingCert(t).tlsCertificate(t)}}
	if clientCA != nil {
		pool := x509.NewCertPool()
		pool.AddCert(clientCA.cert)
		srv.TLS.ClientCAs = pool
		srv.TLS.ClientAuth = tls.RequireAndVerifyClientCert
	}
	for _, f := range configure {
		f(srv)
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// whoAmI sends a GET through rt and returns the user the server saw.
func whoAmI(t *testing.T, rt http.RoundTripper, url string) (string, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url+"/api/v1/namespaces/default", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var status metav1.Status
	// A read can fail when a certificate rotation closes the connection
	// mid-response; callers polling through a rotation retry on any error.
	if err := json.NewDecoder(resp.Body).Decode(&status); err != nil {
		return "", fmt.Errorf("decoding response: %w", err)
	}
	return status.Message, nil
}
