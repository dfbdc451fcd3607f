package cert

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"errors"
)

// ParseCertsPEM returns the certificates in the "CERTIFICATE" blocks of
// pemCerts, in order. Other blocks, and blocks with headers, are skipped.
// It fails when a certificate does not parse (returning those parsed
// before it) or when there is no certificate at all.
func ParseCertsPEM(pemCerts []byte) ([]*x509.Certificate, error) {
	certs := []*x509.Certificate{}
	for rest := pemCerts; len(rest) > 0; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != CertificateBlockType || len(block.Headers) > 0 {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return certs, err
		}
		certs = append(certs, cert)
	}
	if len(certs) == 0 {
		return certs, errors.New("data does not contain any valid RSA or ECDSA certificates")
	}
	return certs, nil
}

// PEM block types of certificates.
const (
	// CertificateBlockType is the PEM type of an X.509 certificate.
	CertificateBlockType = "CERTIFICATE"
	// CertificateRequestBlockType is the PEM type of a PKCS #10 certificate
	// signing request.
	CertificateRequestBlockType = "CERTIFICATE REQUEST"
)

// EncodeCertificates returns certs as consecutive "CERTIFICATE" PEM blocks.
func EncodeCertificates(certs ...*x509.Certificate) ([]byte, error) {
	var buf bytes.Buffer
	for _, c := range certs {
		if err := pem.Encode(&buf, &pem.Block{Type: CertificateBlockType, Bytes: c.Raw}); err != nil {
			return []byte{}, err
		}
	}
	return buf.Bytes(), nil
}
