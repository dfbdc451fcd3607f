package cert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kubeclient/client-go/util/keyutil"
)

func TestNewSelfSignedCACert(t *testing.T) {
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	notBefore := time.Date(2020, 5, 6, 7, 8, 9, 0, time.FixedZone("X", 3600))
	tests := []struct {
		name          string
		cfg           Config
		key           interface{ Public() any }
		wantDNS       []string
		wantNotBefore time.Time // zero: about now
	}{
		{name: "ecdsa with common name", cfg: Config{CommonName: "my-ca", Organization: []string{"org-a", "org-b"}}, wantDNS: []string{"my-ca"}},
		{name: "rsa without common name", cfg: Config{}, wantDNS: nil},
		{name: "explicit NotBefore", cfg: Config{CommonName: "ca", NotBefore: notBefore}, wantDNS: []string{"ca"}, wantNotBefore: notBefore.UTC()},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := time.Now().Add(-time.Second)
			var ca *x509.Certificate
			var err error
			if i == 1 {
				ca, err = NewSelfSignedCACert(tt.cfg, rsaKey)
			} else {
				ca, err = NewSelfSignedCACert(tt.cfg, ecKey)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !ca.IsCA || !ca.BasicConstraintsValid {
				t.Error("not a CA")
			}
			if ca.KeyUsage&x509.KeyUsageCertSign == 0 || ca.KeyUsage&x509.KeyUsageDigitalSignature == 0 {
				t.Errorf("key usage %v lacks cert sign or digital signature", ca.KeyUsage)
			}
			if ca.Subject.CommonName != tt.cfg.CommonName || !reflect.DeepEqual(ca.Subject.Organization, tt.cfg.Organization) {
				t.Errorf("subject %v, want CN %q O %q", ca.Subject, tt.cfg.CommonName, tt.cfg.Organization)
			}
			if !reflect.DeepEqual(ca.DNSNames, tt.wantDNS) {
				t.Errorf("DNS names %q, want %q", ca.DNSNames, tt.wantDNS)
			}
			if err := ca.CheckSignatureFrom(ca); err != nil {
				t.Errorf("not self-signed: %v", err)
			}
			if ca.SerialNumber.Sign() <= 0 {
				t.Errorf("serial %v not positive", ca.SerialNumber)
			}
			if tt.wantNotBefore.IsZero() {
				if ca.NotBefore.Before(before.Truncate(time.Second)) || ca.NotBefore.After(time.Now()) {
					t.Errorf("NotBefore %v, want about now", ca.NotBefore)
				}
			} else if !ca.NotBefore.Equal(tt.wantNotBefore) {
				t.Errorf("NotBefore %v, want %v", ca.NotBefore, tt.wantNotBefore)
			}
			if years := ca.NotAfter.Sub(before) / (365 * 24 * time.Hour); years != 10 {
				t.Errorf("valid for %d years, want 10", years)
			}
		})
	}
}

func TestGenerateSelfSignedCertKey(t *testing.T) {
	tests := []struct {
		name    string
		host    string
		ips     []net.IP
		dns     []string
		wantIPs []string
		wantDNS []string
	}{
		{name: "dns host", host: "example.test", wantDNS: []string{"example.test"}},
		{name: "ip host with alternates", host: "127.0.0.1", ips: []net.IP{net.ParseIP("::1")}, dns: []string{"localhost"},
			wantIPs: []string{"127.0.0.1", "::1"}, wantDNS: []string{"localhost"}},
		{name: "dns host with alternate ip", host: "svc.local", ips: []net.IP{net.ParseIP("10.0.0.1")},
			wantIPs: []string{"10.0.0.1"}, wantDNS: []string{"svc.local"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			certPEM, keyPEM, err := GenerateSelfSignedCertKey(tt.host, tt.ips, tt.dns)
			if err != nil {
				t.Fatal(err)
			}
			certs, err := ParseCertsPEM(certPEM)
			if err != nil {
				t.Fatal(err)
			}
			if len(certs) != 2 {
				t.Fatalf("%d certificates, want serving cert and CA", len(certs))
			}
			serving, ca := certs[0], certs[1]
			if !ca.IsCA || serving.IsCA {
				t.Errorf("IsCA: serving %v, ca %v", serving.IsCA, ca.IsCA)
			}
			if !strings.HasPrefix(ca.Subject.CommonName, tt.host+"-ca@") || !strings.HasPrefix(serving.Subject.CommonName, tt.host+"@") {
				t.Errorf("common names %q and %q", serving.Subject.CommonName, ca.Subject.CommonName)
			}
			var gotIPs []string
			for _, ip := range serving.IPAddresses {
				gotIPs = append(gotIPs, ip.String())
			}
			if !reflect.DeepEqual(gotIPs, tt.wantIPs) || !reflect.DeepEqual(serving.DNSNames, tt.wantDNS) {
				t.Errorf("SANs IPs %q DNS %q, want %q %q", gotIPs, serving.DNSNames, tt.wantIPs, tt.wantDNS)
			}

			roots := x509.NewCertPool()
			roots.AddCert(ca)
			if _, err := serving.Verify(x509.VerifyOptions{DNSName: tt.host, Roots: roots}); err != nil {
				t.Errorf("serving cert does not verify for %s: %v", tt.host, err)
			}
			if age := serving.NotAfter.Sub(serving.NotBefore); age != 365*24*time.Hour {
				t.Errorf("validity %v, want one year", age)
			}
			if time.Until(serving.NotBefore) > -50*time.Minute {
				t.Errorf("NotBefore %v is not backdated by about an hour", serving.NotBefore)
			}

			key, err := keyutil.ParsePrivateKeyPEM(keyPEM)
			if err != nil {
				t.Fatal(err)
			}
			rsaKey, ok := key.(*rsa.PrivateKey)
			if !ok || !rsaKey.PublicKey.Equal(serving.PublicKey) {
				t.Error("key does not match the serving certificate")
			}
		})
	}
}

func TestGenerateSelfSignedCertKeyWithOptionsMaxAge(t *testing.T) {
	certPEM, _, err := GenerateSelfSignedCertKeyWithOptions(SelfSignedCertKeyOptions{Host: "h", MaxAge: 48 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	certs, err := ParseCertsPEM(certPEM)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range certs {
		if got := c.NotAfter.Sub(c.NotBefore); got != 48*time.Hour {
			t.Errorf("%s valid for %v, want 48h", c.Subject.CommonName, got)
		}
	}
}

func TestGenerateSelfSignedCertKeyWithFixtures(t *testing.T) {
	dir := t.TempDir()
	ips := []net.IP{net.ParseIP("10.0.0.1"), net.ParseIP("10.0.0.2")}
	dns := []string{"a.test", "b.test"}
	certPEM, keyPEM, err := GenerateSelfSignedCertKeyWithFixtures("host.test", ips, dns, dir)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "host.test_10.0.0.1-10.0.0.2_a.test-b.test")
	onDiskCert, err := os.ReadFile(base + ".crt")
	if err != nil || string(onDiskCert) != string(certPEM) {
		t.Fatalf("cert fixture not written as returned (err %v)", err)
	}
	onDiskKey, err := os.ReadFile(base + ".key")
	if err != nil || string(onDiskKey) != string(keyPEM) {
		t.Fatalf("key fixture not written as returned (err %v)", err)
	}
	certs, _ := ParseCertsPEM(certPEM)
	if got := certs[0].NotAfter.Sub(certs[0].NotBefore); got != 100*365*24*time.Hour {
		t.Errorf("fixture validity %v, want 100 years", got)
	}

	// A second call returns the stored pair unchanged.
	again, againKey, err := GenerateSelfSignedCertKeyWithFixtures("host.test", ips, dns, dir)
	if err != nil || string(again) != string(certPEM) || string(againKey) != string(keyPEM) {
		t.Errorf("second call did not return the fixture (err %v)", err)
	}

	// A certificate without its key is an error.
	if err := os.Remove(base + ".key"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := GenerateSelfSignedCertKeyWithFixtures("host.test", ips, dns, dir); err == nil || !strings.Contains(err.Error(), ".key") {
		t.Errorf("error = %v, want one naming the missing key", err)
	}
}

// TestFixtureKeyLeavesMode0600 checks that a generated fixture key is
// readable by its owner only, also where a world-readable key file was left
// behind without its certificate: client-go keeps that file's mode.
func TestFixtureKeyLeavesMode0600(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "host.test__.key")
	for _, existingMode := range []os.FileMode{0, 0o644} {
		if existingMode != 0 {
			if err := os.WriteFile(keyFile, []byte("stale key"), existingMode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(keyFile, existingMode); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(dir, "host.test__.crt")); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := GenerateSelfSignedCertKeyWithFixtures("host.test", nil, nil, dir); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(keyFile)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != 0o600 {
			t.Errorf("existing mode %v: key fixture mode = %v, want -rw-------", existingMode, got)
		}
	}
}
