package cert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newTestCA(t *testing.T, name string) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := NewSelfSignedCACert(Config{CommonName: name}, key)
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

func TestParseCertsPEM(t *testing.T) {
	a, b := newTestCA(t, "a"), newTestCA(t, "b")
	both, err := EncodeCertificates(a, b)
	if err != nil {
		t.Fatal(err)
	}
	withHeaders := pem.EncodeToMemory(&pem.Block{Type: CertificateBlockType, Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: a.Raw})
	keyBlock := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: []byte("k")})
	corrupt := pem.EncodeToMemory(&pem.Block{Type: CertificateBlockType, Bytes: []byte("not der")})

	tests := []struct {
		name      string
		data      []byte
		wantNames []string
		wantErr   string
	}{
		{name: "two certificates in order", data: both, wantNames: []string{"a", "b"}},
		{name: "only a key", data: keyBlock, wantErr: "does not contain any valid"},
		{name: "empty", data: nil, wantErr: "does not contain any valid"},
		{name: "corrupt certificate", data: append(append([]byte{}, both...), corrupt...), wantErr: "x509"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			certs, err := ParseCertsPEM(tt.data)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range certs {
				names = append(names, c.Subject.CommonName)
			}
			if strings.Join(names, ",") != strings.Join(tt.wantNames, ",") {
				t.Errorf("names %q, want %q", names, tt.wantNames)
			}
		})
	}

	// Skipping: a key block and a certificate with headers before a valid
	// certificate leave just that certificate.
	data := append(append(append([]byte{}, keyBlock...), withHeaders...), pem.EncodeToMemory(&pem.Block{Type: CertificateBlockType, Bytes: b.Raw})...)
	certs, err := ParseCertsPEM(data)
	if err != nil || len(certs) != 1 || certs[0].Subject.CommonName != "b" {
		t.Errorf("ParseCertsPEM with skipped blocks = %d certs, %v; want just b", len(certs), err)
	}
}

func TestEncodeCertificates(t *testing.T) {
	a := newTestCA(t, "a")
	empty, err := EncodeCertificates()
	if err != nil || len(empty) != 0 {
		t.Errorf("no certificates: %q, %v", empty, err)
	}
	data, err := EncodeCertificates(a)
	if err != nil {
		t.Fatal(err)
	}
	block, rest := pem.Decode(data)
	if block == nil || block.Type != CertificateBlockType || string(block.Bytes) != string(a.Raw) || len(rest) != 0 {
		t.Errorf("encoding is not a single CERTIFICATE block of the raw DER")
	}
}

func TestPoolsAndFiles(t *testing.T) {
	a, b := newTestCA(t, "a"), newTestCA(t, "b")
	both, _ := EncodeCertificates(a, b)
	dir := t.TempDir()
	good := filepath.Join(dir, "sub", "ca.crt")
	if err := WriteCert(good, both); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(good); err != nil || info.Mode().Perm() != 0o644 {
		t.Fatalf("WriteCert: %v, mode %v", err, info.Mode().Perm())
	}
	bad := filepath.Join(dir, "bad.crt")
	if err := WriteCert(bad, []byte("nope")); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.crt")

	certs, err := CertsFromFile(good)
	if err != nil || len(certs) != 2 {
		t.Errorf("CertsFromFile = %d, %v", len(certs), err)
	}
	pool, err := NewPool(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*x509.Certificate{a, b} {
		if _, err := c.Verify(x509.VerifyOptions{Roots: pool}); err != nil {
			t.Errorf("%s not trusted by pool: %v", c.Subject.CommonName, err)
		}
	}
	if _, err := NewPoolFromBytes(both); err != nil {
		t.Errorf("NewPoolFromBytes: %v", err)
	}

	for name, fn := range map[string]func(string) error{
		"CertsFromFile": func(p string) error { _, err := CertsFromFile(p); return err },
		"NewPool":       func(p string) error { _, err := NewPool(p); return err },
	} {
		if err := fn(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s(bad): %v, want an error naming the file", name, err)
		}
		if err := fn(missing); !os.IsNotExist(err) {
			t.Errorf("%s(missing): %v, want not-exist", name, err)
		}
	}
	if _, err := NewPoolFromBytes([]byte("x")); err == nil {
		t.Error("NewPoolFromBytes accepted garbage")
	}
}

func TestCanReadCertAndKey(t *testing.T) {
	dir := t.TempDir()
	cert, key := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	absent := filepath.Join(dir, "absent")
	for _, p := range []string{cert, key} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name      string
		cert, key string
		want      bool
		errNames  string
	}{
		{name: "both", cert: cert, key: key, want: true},
		{name: "neither", cert: absent, key: absent + "2", want: false},
		{name: "cert missing", cert: absent, key: key, errNames: absent},
		{name: "key missing", cert: cert, key: absent, errNames: absent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CanReadCertAndKey(tt.cert, tt.key)
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if tt.errNames == "" && err != nil {
				t.Errorf("unexpected error %v", err)
			}
			if tt.errNames != "" && (err == nil || !strings.Contains(err.Error(), tt.errNames)) {
				t.Errorf("error %v, want one naming %s", err, tt.errNames)
			}
		})
	}
}
