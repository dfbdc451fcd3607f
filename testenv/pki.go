package testenv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pkiFiles are the PEM files the harness generates for kube-apiserver.
type pkiFiles struct {
	CAFile          string // CA that signed the serving certificate; clients trust it
	ServingCertFile string
	ServingKeyFile  string
	SAKeyFile       string // service-account signing key (private)
	SAPubFile       string // its public half, used to verify tokens
}

// writePKI generates a throwaway CA, a serving certificate for the loopback
// address and the in-cluster service names, and a service-account key pair,
// and writes them as PEM files under dir. ECDSA P-256 keeps this fast.
func writePKI(dir string) (pkiFiles, error) {
	files := pkiFiles{
		CAFile:          filepath.Join(dir, "ca.crt"),
		ServingCertFile: filepath.Join(dir, "apiserver.crt"),
		ServingKeyFile:  filepath.Join(dir, "apiserver.key"),
		SAKeyFile:       filepath.Join(dir, "sa.key"),
		SAPubFile:       filepath.Join(dir, "sa.pub"),
	}
	now := time.Now()

	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return files, err
	}
	caTemplate := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "kubeclient-testenv-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return files, fmt.Errorf("creating CA certificate: %w", err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return files, err
	}

	servingKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return files, err
	}
	servingTemplate := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default",
			"kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
	}
	servingDER, err := x509.CreateCertificate(rand.Reader, servingTemplate, caCert, &servingKey.PublicKey, caKey)
	if err != nil {
		return files, fmt.Errorf("creating serving certificate: %w", err)
	}

	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return files, err
	}

	writes := []struct {
		path  string
		block string
		der   func() ([]byte, error)
	}{
		{files.CAFile, "CERTIFICATE", func() ([]byte, error) { return caDER, nil }},
		{files.ServingCertFile, "CERTIFICATE", func() ([]byte, error) { return servingDER, nil }},
		{files.ServingKeyFile, "EC PRIVATE KEY", func() ([]byte, error) { return x509.MarshalECPrivateKey(servingKey) }},
		{files.SAKeyFile, "EC PRIVATE KEY", func() ([]byte, error) { return x509.MarshalECPrivateKey(saKey) }},
		{files.SAPubFile, "PUBLIC KEY", func() ([]byte, error) { return x509.MarshalPKIXPublicKey(&saKey.PublicKey) }},
	}
	for _, w := range writes {
		der, err := w.der()
		if err != nil {
			return files, fmt.Errorf("encoding %s: %w", w.path, err)
		}
		if err := os.WriteFile(w.path, pem.EncodeToMemory(&pem.Block{Type: w.block, Bytes: der}), 0o600); err != nil {
			return files, err
		}
	}
	return files, nil
}
