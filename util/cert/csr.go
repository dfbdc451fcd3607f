package cert

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"net"
)

// MakeCSR returns a PEM "CERTIFICATE REQUEST" for subject with the given
// DNS and IP subject alternative names, signed by privateKey, which must be
// a crypto.Signer such as *rsa.PrivateKey or *ecdsa.PrivateKey.
func MakeCSR(privateKey interface{}, subject *pkix.Name, dnsSANs []string, ipSANs []net.IP) (csr []byte, err error) {
	return MakeCSRFromTemplate(privateKey, &x509.CertificateRequest{
		Subject:     *subject,
		DNSNames:    dnsSANs,
		IPAddresses: ipSANs,
	})
}

// MakeCSRFromTemplate returns a PEM "CERTIFICATE REQUEST" built from
// template and signed by privateKey, which must be a crypto.Signer. The
// signature algorithm of template is ignored: it is chosen from the key
// (SHA-256, SHA-384 or SHA-512 with RSA by key size; the key's default
// otherwise). template itself is not modified.
func MakeCSRFromTemplate(privateKey interface{}, template *x509.CertificateRequest) ([]byte, error) {
	req := *template
	req.SignatureAlgorithm = signatureAlgorithmFor(privateKey)
	der, err := x509.CreateCertificateRequest(rand.Reader, &req, privateKey)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: CertificateRequestBlockType, Bytes: der}), nil
}

// signatureAlgorithmFor picks a hash strong enough for an RSA key's size;
// for other keys it leaves the choice to crypto/x509.
func signatureAlgorithmFor(privateKey any) x509.SignatureAlgorithm {
	key, ok := privateKey.(*rsa.PrivateKey)
	if !ok {
		return x509.UnknownSignatureAlgorithm
	}
	switch bits := key.N.BitLen(); {
	case bits >= 4096:
		return x509.SHA512WithRSA
	case bits >= 3072:
		return x509.SHA384WithRSA
	default:
		return x509.SHA256WithRSA
	}
}
