package cert

import (
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubeclient/client-go/internal/pemfile"
)

// CanReadCertAndKey reports whether both certPath and keyPath can be
// opened. It returns false and no error when neither can, and an error
// naming the missing file when only one can, since the two go in pairs.
func CanReadCertAndKey(certPath, keyPath string) (bool, error) {
	certOK, keyOK := canOpen(certPath), canOpen(keyPath)
	switch {
	case !certOK && !keyOK:
		return false, nil
	case !certOK:
		return false, fmt.Errorf("error reading %s, certificate and key must be supplied as a pair", certPath)
	case !keyOK:
		return false, fmt.Errorf("error reading %s, certificate and key must be supplied as a pair", keyPath)
	}
	return true, nil
}

func canOpen(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// WriteCert writes PEM certificate data to certPath with mode 0644,
// replacing any existing file and creating missing parent directories with
// mode 0755.
func WriteCert(certPath string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(certPath), 0o755); err != nil {
		return err
	}
	return os.WriteFile(certPath, data, 0o644)
}

// CertsFromFile returns the certificates of the PEM file at file. It fails
// when the file cannot be read, a certificate does not parse, or there is
// none.
func CertsFromFile(file string) ([]*x509.Certificate, error) {
	return pemfile.Parse(file, "error reading", ParseCertsPEM)
}

// NewPool returns a pool holding the certificates of the PEM file at
// filename. It fails when the file cannot be read, a certificate does not
// parse, or there is none.
func NewPool(filename string) (*x509.CertPool, error) {
	return pemfile.Parse(filename, "error creating pool from", NewPoolFromBytes)
}

// NewPoolFromBytes returns a pool holding the certificates of pemBlock. It
// fails when a certificate does not parse or there is none.
func NewPoolFromBytes(pemBlock []byte) (*x509.CertPool, error) {
	certs, err := ParseCertsPEM(pemBlock)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	for _, c := range certs {
		pool.AddCert(c)
	}
	return pool, nil
}
