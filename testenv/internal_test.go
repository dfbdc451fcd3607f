package testenv

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

func TestFeatureGatesFlag(t *testing.T) {
	if got := featureGatesFlag(nil); got != "" {
		t.Errorf("no gates: %q", got)
	}
	got := featureGatesFlag(map[string]bool{"Zeta": false, "Alpha": true})
	if want := "--feature-gates=Alpha=true,Zeta=false"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWriteTokens(t *testing.T) {
	env := &Env{Dir: t.TempDir()}
	path, err := env.writeTokens([]User{{Name: "ops", Groups: []string{"a", "b"}}, {Name: "dev"}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := AdminToken + ",admin,admin-uid,\"system:masters\"\n" +
		UnprivilegedToken + ",jane,jane-uid\n" +
		"testenv-token-ops,ops,ops-uid,\"a,b\"\n" +
		"testenv-token-dev,dev,dev-uid\n"
	if string(data) != want {
		t.Errorf("token file:\n%s\nwant:\n%s", data, want)
	}
	for _, bad := range [][]User{{{Name: ""}}, {{Name: "a,b"}}, {{Name: "x"}, {Name: "x"}}, {{Name: AdminUser}}} {
		if _, err := (&Env{Dir: t.TempDir()}).writeTokens(bad); err == nil {
			t.Errorf("users %v accepted", bad)
		}
	}
}

func TestToCRD(t *testing.T) {
	type typed struct {
		Metadata map[string]any `json:"metadata"`
		Spec     map[string]any `json:"spec"`
	}
	u, err := toCRD(typed{Metadata: map[string]any{"name": "foos.example.com", "resourceVersion": "7"}, Spec: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if u.GetKind() != "CustomResourceDefinition" || u.GetAPIVersion() != "apiextensions.k8s.io/v1" {
		t.Errorf("type not filled in: %s %s", u.GetAPIVersion(), u.GetKind())
	}
	if u.GetResourceVersion() != "" {
		t.Errorf("resourceVersion %q kept", u.GetResourceVersion())
	}
	for _, bad := range []any{
		map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}},
		map[string]any{"kind": "CustomResourceDefinition"},
		"not an object",
	} {
		if _, err := toCRD(bad); err == nil {
			t.Errorf("toCRD(%v) accepted", bad)
		}
	}
}
