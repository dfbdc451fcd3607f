package clientcmd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// testCA is a throwaway certificate authority for client certificates.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "test-ca"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageCertSign,
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key}
}

// issueClient returns PEM certificate and key for a client named user in
// group.
func (ca *testCA) issueClient(t *testing.T, user, group string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: user, Organization: []string{group}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

// newAPIServer starts a TLS server that requires a client certificate from
// ca and answers GET /version like an API server, reporting who called.
func newAPIServer(t *testing.T, ca *testCA) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/version" {
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   metav1.StatusFailure, Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound,
				Message: "the server could not find the requested resource",
			})
			return
		}
		peer := r.TLS.PeerCertificates[0]
		_ = json.NewEncoder(w).Encode(map[string]string{
			"gitVersion":  "v1.37.2",
			"user":        peer.Subject.CommonName,
			"auth":        r.Header.Get("Authorization"),
			"impersonate": r.Header.Get("Impersonate-User"),
		})
	}))
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	// Refused handshakes are expected in these tests; keep them out of
	// the output.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func TestRESTConfigReachesTLSServer(t *testing.T) {
	ca := newTestCA(t)
	srv := newAPIServer(t, ca)
	serverCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	certPEM, keyPEM := ca.issueClient(t, "jane", "devs")

	b64 := base64.StdEncoding.EncodeToString
	kubeconfig := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: test
clusters:
- name: test
  cluster:
    server: %s
    certificate-authority-data: %s
    tls-server-name: example.com
users:
- name: jane
  user:
    client-certificate-data: %s
    client-key-data: %s
    token: secret-token
    as: impersonated
contexts:
- name: test
  context: {cluster: test, user: jane}
`, srv.URL, b64(serverCA), b64(certPEM), b64(keyPEM))

	config, err := RESTConfigFromKubeConfig([]byte(kubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	body := getVersion(t, config, srv.URL+"/version")
	if body["user"] != "jane" || body["auth"] != "Bearer secret-token" || body["impersonate"] != "impersonated" {
		t.Errorf("server saw %v", body)
	}

	// Without the client certificate the handshake fails.
	noCert := restclient.CopyConfig(config)
	noCert.CertData, noCert.KeyData = nil, nil
	if _, err := doGet(noCert, srv.URL+"/version"); err == nil {
		t.Errorf("request without client certificate succeeded")
	}

	// A wrong CA is refused too.
	otherCA := newTestCA(t)
	wrongCA := restclient.CopyConfig(config)
	wrongCA.CAData = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: otherCA.cert.Raw})
	if _, err := doGet(wrongCA, srv.URL+"/version"); err == nil {
		t.Errorf("request trusting the wrong CA succeeded")
	}
}

func getVersion(t *testing.T, config *restclient.Config, url string) map[string]string {
	t.Helper()
	resp, err := doGet(config, url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var body map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body
}

func doGet(config *restclient.Config, url string) (*http.Response, error) {
	client, err := restclient.HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

func TestContradictoryTLSSettings(t *testing.T) {
	ca := newTestCA(t)
	srv := newAPIServer(t, ca)
	serverCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	certPEM, keyPEM := ca.issueClient(t, "jane", "devs")
	b64 := base64.StdEncoding.EncodeToString
	kubeconfig := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: test
clusters:
- name: test
  cluster:
    server: %s
    certificate-authority-data: %s
    insecure-skip-tls-verify: true
users:
- name: jane
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: test
  context: {cluster: test, user: jane}
`, srv.URL, b64(serverCA), b64(certPEM), b64(keyPEM))

	// As in client-go, the kubeconfig itself loads; the contradiction is
	// refused when the transport is built.
	config, err := RESTConfigFromKubeConfig([]byte(kubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	if !config.Insecure || len(config.CAData) == 0 {
		t.Fatalf("both settings should be carried: insecure=%v CA=%d bytes", config.Insecure, len(config.CAData))
	}
	if _, err := restclient.HTTPClientFor(config); err == nil || !strings.Contains(err.Error(), "insecure flag is not allowed") {
		t.Errorf("transport accepted insecure together with a CA: %v", err)
	}

	// The --insecure-skip-tls-verify override drops the file's CA, so the
	// combination works from the command line.
	raw, err := Load([]byte(kubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	raw.Clusters["test"].InsecureSkipTLSVerify = false
	overridden, err := NewDefaultClientConfig(*raw, &ConfigOverrides{ClusterInfo: clientcmdapi.Cluster{InsecureSkipTLSVerify: true}}).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if body := getVersion(t, overridden, srv.URL+"/version"); body["user"] != "jane" {
		t.Errorf("server saw %v", body)
	}
}
