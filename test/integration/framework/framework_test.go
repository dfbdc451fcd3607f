package framework

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"os"
	"testing"
)

func TestTail(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"one\n", 3, "one"},
		{"one\ntwo\nthree\n", 2, "two\nthree"},
		{"one\ntwo\nthree", 3, "one\ntwo\nthree"},
		{"one\ntwo\nthree", 1, "three"},
		{"a\nb", 0, ""},
	}
	for _, tt := range tests {
		if got := tail([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("tail(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestWritePKI(t *testing.T) {
	files, err := writePKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(files.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatal("CA file holds no certificate")
	}
	pair, err := tls.LoadX509KeyPair(files.ServingCertFile, files.ServingKeyFile)
	if err != nil {
		t.Fatalf("serving key pair: %v", err)
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"127.0.0.1", "localhost", "kubernetes.default.svc", "10.0.0.1"} {
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: host}); err != nil {
			t.Errorf("serving certificate does not verify for %s: %v", host, err)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: "example.com"}); err == nil {
		t.Error("serving certificate verifies for example.com")
	}

	pub, err := os.ReadFile(files.SAPubFile)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(pub)
	if block == nil || block.Type != "PUBLIC KEY" {
		t.Fatalf("%s is not a PEM public key", files.SAPubFile)
	}
	if _, err := x509.ParsePKIXPublicKey(block.Bytes); err != nil {
		t.Errorf("service-account public key: %v", err)
	}
	key, err := os.ReadFile(files.SAKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	if block, _ := pem.Decode(key); block == nil || block.Type != "EC PRIVATE KEY" {
		t.Errorf("%s is not a PEM EC private key", files.SAKeyFile)
	} else if _, err := x509.ParseECPrivateKey(block.Bytes); err != nil {
		t.Errorf("service-account private key: %v", err)
	}
}

func TestFreePortsAreDistinct(t *testing.T) {
	ports, err := freePorts(5)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if p <= 0 || seen[p] {
			t.Errorf("ports %v: bad or repeated %d", ports, p)
		}
		seen[p] = true
	}
}
