package cert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"net"
	"reflect"
	"testing"
)

func TestMakeCSR(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsa2048, _ := rsa.GenerateKey(rand.Reader, 2048)
	rsa3072, _ := rsa.GenerateKey(rand.Reader, 3072)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)

	subject := &pkix.Name{CommonName: "system:node:n1", Organization: []string{"system:nodes"}}
	dns := []string{"n1.cluster.local"}
	ips := []net.IP{net.ParseIP("10.1.2.3").To4()}

	tests := []struct {
		name    string
		key     crypto.Signer
		wantAlg x509.SignatureAlgorithm
	}{
		{name: "ecdsa", key: ec, wantAlg: x509.ECDSAWithSHA256},
		{name: "rsa 2048", key: rsa2048, wantAlg: x509.SHA256WithRSA},
		{name: "rsa 3072", key: rsa3072, wantAlg: x509.SHA384WithRSA},
		{name: "ed25519", key: ed, wantAlg: x509.PureEd25519},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := MakeCSR(tt.key, subject, dns, ips)
			if err != nil {
				t.Fatal(err)
			}
			block, _ := pem.Decode(data)
			if block == nil || block.Type != CertificateRequestBlockType {
				t.Fatalf("not a %q PEM block", CertificateRequestBlockType)
			}
			csr, err := x509.ParseCertificateRequest(block.Bytes)
			if err != nil {
				t.Fatal(err)
			}
			if err := csr.CheckSignature(); err != nil {
				t.Errorf("signature: %v", err)
			}
			if csr.SignatureAlgorithm != tt.wantAlg {
				t.Errorf("algorithm %v, want %v", csr.SignatureAlgorithm, tt.wantAlg)
			}
			if csr.Subject.CommonName != subject.CommonName || !reflect.DeepEqual(csr.Subject.Organization, subject.Organization) {
				t.Errorf("subject %v", csr.Subject)
			}
			if !reflect.DeepEqual(csr.DNSNames, dns) || len(csr.IPAddresses) != 1 || !csr.IPAddresses[0].Equal(ips[0]) {
				t.Errorf("SANs %q %v", csr.DNSNames, csr.IPAddresses)
			}
		})
	}
}

func TestMakeCSRFromTemplate(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	template := &x509.CertificateRequest{
		Subject:            pkix.Name{CommonName: "c"},
		EmailAddresses:     []string{"a@b.test"},
		SignatureAlgorithm: x509.SHA512WithRSA, // wrong for the key: must be ignored
	}
	data, err := MakeCSRFromTemplate(key, template)
	if err != nil {
		t.Fatal(err)
	}
	if template.SignatureAlgorithm != x509.SHA512WithRSA {
		t.Error("template was modified")
	}
	block, _ := pem.Decode(data)
	csr, err := x509.ParseCertificateRequest(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(csr.EmailAddresses, template.EmailAddresses) {
		t.Errorf("emails %q", csr.EmailAddresses)
	}

	if _, err := MakeCSRFromTemplate("not a key", template); err == nil {
		t.Error("a non-signer key was accepted")
	}
}
