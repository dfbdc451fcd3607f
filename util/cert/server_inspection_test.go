package cert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestServerInspection(t *testing.T) {
	clientCAKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	clientCA, err := NewSelfSignedCACert(Config{CommonName: "client-ca", Organization: []string{"acme"}}, clientCAKey)
	if err != nil {
		t.Fatal(err)
	}
	clientCAs := x509.NewCertPool()
	clientCAs.AddCert(clientCA)

	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	srv.TLS = &tls.Config{ClientCAs: clientCAs, ClientAuth: tls.RequestClientCert}
	srv.StartTLS()
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "https://")

	t.Run("client CA names", func(t *testing.T) {
		for _, get := range []func() ([]string, error){
			func() ([]string, error) { return GetClientCANames(host) },
			func() ([]string, error) { return GetClientCANamesForURL(srv.URL) },
		} {
			names, err := get()
			if err != nil {
				t.Fatal(err)
			}
			want := []string{string(clientCA.RawSubject)}
			if !reflect.DeepEqual(names, want) {
				t.Errorf("names %q, want %q", names, want)
			}
		}
	})

	t.Run("serving certificates", func(t *testing.T) {
		for _, get := range []func() ([]*x509.Certificate, [][]byte, error){
			func() ([]*x509.Certificate, [][]byte, error) { return GetServingCertificates(host, "") },
			func() ([]*x509.Certificate, [][]byte, error) {
				return GetServingCertificatesForURL(srv.URL, "example.com")
			},
		} {
			certs, encoded, err := get()
			if err != nil {
				t.Fatal(err)
			}
			if len(certs) == 0 || len(certs) != len(encoded) {
				t.Fatalf("%d certificates, %d encodings", len(certs), len(encoded))
			}
			if !certs[0].Equal(srv.Certificate()) {
				t.Error("first certificate is not the server's")
			}
			parsed, err := ParseCertsPEM(encoded[0])
			if err != nil || !parsed[0].Equal(certs[0]) {
				t.Errorf("encoding does not round trip: %v", err)
			}
			if strings.HasSuffix(string(encoded[0]), "\n") {
				t.Error("encoding keeps its trailing newline")
			}
		}
	})

	t.Run("unreachable", func(t *testing.T) {
		dead := httptest.NewServer(http.NotFoundHandler())
		addr := dead.Listener.Addr().String()
		dead.Close()
		if _, err := GetClientCANames(addr); err == nil {
			t.Error("GetClientCANames succeeded against a closed port")
		}
		if _, _, err := GetServingCertificates(addr, ""); err == nil {
			t.Error("GetServingCertificates succeeded against a closed port")
		}
		if _, err := GetClientCANamesForURL("://bad"); err == nil {
			t.Error("bad URL accepted")
		}
	})
}
