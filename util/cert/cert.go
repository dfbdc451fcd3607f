package cert

import (
	"bytes"
	"cmp"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	netutils "k8s.io/utils/net"

	"github.com/kubeclient/client-go/util/keyutil"
)

const (
	// year is the length of a certificate year.
	year = 365 * 24 * time.Hour
	// caValidity is how long a CA from NewSelfSignedCACert is valid.
	caValidity = 10 * year
	// defaultServingValidity is the default validity of
	// GenerateSelfSignedCertKeyWithOptions.
	defaultServingValidity = year
	// fixtureValidity is the validity of generated fixtures.
	fixtureValidity = 100 * year
	// generatedKeyBits is the RSA key size of generated certificates.
	generatedKeyBits = 2048
)

// Config describes a certificate to create.
type Config struct {
	CommonName   string
	Organization []string
	AltNames     AltNames
	Usages       []x509.ExtKeyUsage
	NotBefore    time.Time
}

// AltNames holds the subject alternative names of a certificate.
type AltNames struct {
	DNSNames []string
	IPs      []net.IP
}

// caTemplate returns the template of a CA certificate: it may sign
// certificates and keys, valid from notBefore to notAfter.
func caTemplate(subject pkix.Name, notBefore, notAfter time.Time) (*x509.Certificate, error) {
	serial, err := randomSerial()
	if err != nil {
		return nil, err
	}
	return &x509.Certificate{
		SerialNumber:          serial,
		Subject:               subject,
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}, nil
}

// issue signs template with signerKey as parent (template itself for a
// self-signed certificate) and returns the DER bytes and the parsed
// certificate.
func issue(template, parent *x509.Certificate, public crypto.PublicKey, signerKey crypto.Signer) ([]byte, *x509.Certificate, error) {
	der, err := x509.CreateCertificate(rand.Reader, template, parent, public, signerKey)
	if err != nil {
		return nil, nil, err
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	return der, parsed, nil
}

// NewSelfSignedCACert returns a CA certificate for key, signed by key
// itself. It is valid for ten years from now, starting at cfg.NotBefore when
// set and now otherwise. The subject is cfg.CommonName and
// cfg.Organization, and a non-empty CommonName is also its DNS name.
func NewSelfSignedCACert(cfg Config, key crypto.Signer) (*x509.Certificate, error) {
	now := time.Now()
	start := now
	if !cfg.NotBefore.IsZero() {
		start = cfg.NotBefore
	}
	template, err := caTemplate(pkix.Name{CommonName: cfg.CommonName, Organization: cfg.Organization},
		start.UTC(), now.Add(caValidity).UTC())
	if err != nil {
		return nil, err
	}
	if cfg.CommonName != "" {
		template.DNSNames = append(template.DNSNames, cfg.CommonName)
	}
	_, ca, err := issue(template, template, key.Public(), key)
	return ca, err
}

// SelfSignedCertKeyOptions configures GenerateSelfSignedCertKeyWithOptions.
type SelfSignedCertKeyOptions struct {
	// Host is the DNS name or IP address the certificate serves. Required.
	Host string
	// AlternateIPs are further IP addresses the certificate is valid for.
	AlternateIPs []net.IP
	// AlternateDNS are further DNS names the certificate is valid for.
	AlternateDNS []string

	// MaxAge is how long the certificate is valid; one year when zero. It
	// is ignored when FixtureDirectory is set.
	MaxAge time.Duration

	// FixtureDirectory, for tests, is a directory of pre-generated pairs
	// named <host>_<ip>-<ip>_<alternateDNS>-<alternateDNS>.crt and .key.
	// A pair found there is returned as is; a missing pair is generated
	// with a validity of 100 years and saved there.
	FixtureDirectory string
}

// fixturePair names the certificate and key files of opts in its
// FixtureDirectory: <host>_<ip>-<ip>_<dns>-<dns>.crt and .key.
func fixturePair(opts SelfSignedCertKeyOptions) (certFile, keyFile string) {
	ips := make([]string, len(opts.AlternateIPs))
	for i, ip := range opts.AlternateIPs {
		ips[i] = ip.String()
	}
	stem := filepath.Join(opts.FixtureDirectory,
		strings.Join([]string{opts.Host, strings.Join(ips, "-"), strings.Join(opts.AlternateDNS, "-")}, "_"))
	return stem + ".crt", stem + ".key"
}

// GenerateSelfSignedCertKeyWithOptions returns a serving certificate chain
// and key as GenerateSelfSignedCertKey does, configured by opts. The
// certificates become valid an hour before now, to tolerate clock skew.
//
// With a FixtureDirectory, an existing certificate file is returned with its
// key (whose absence is then an error); otherwise the pair is generated with
// a validity of 100 years and saved there, the key with mode 0600.
func GenerateSelfSignedCertKeyWithOptions(opts SelfSignedCertKeyOptions) ([]byte, []byte, error) {
	if opts.FixtureDirectory == "" {
		return generateServingPair(opts.Host, opts.AlternateIPs, opts.AlternateDNS, cmp.Or(opts.MaxAge, defaultServingValidity))
	}
	certFile, keyFile := fixturePair(opts)
	if certPEM, err := os.ReadFile(certFile); err == nil {
		keyPEM, err := os.ReadFile(keyFile)
		if err != nil {
			return nil, nil, fmt.Errorf("cert %s can be read, but key %s cannot: %v", certFile, keyFile, err)
		}
		return certPEM, keyPEM, nil
	}
	certPEM, keyPEM, err := generateServingPair(opts.Host, opts.AlternateIPs, opts.AlternateDNS, fixtureValidity)
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(certFile, certPEM, 0o644); err != nil {
		return nil, nil, fmt.Errorf("failed to write cert fixture to %s: %v", certFile, err)
	}
	if err := keyutil.WriteKey(keyFile, keyPEM); err != nil {
		return nil, nil, fmt.Errorf("failed to write key fixture to %s: %v", keyFile, err)
	}
	return certPEM, keyPEM, nil
}

// generateServingPair creates a fresh CA and a serving certificate it signs
// for host (an IP address or a DNS name) plus the alternate names, both
// valid for validity from an hour ago. It returns the PEM chain (serving
// certificate first, then the CA) and the serving certificate's PEM RSA key.
func generateServingPair(host string, alternateIPs []net.IP, alternateDNS []string, validity time.Duration) ([]byte, []byte, error) {
	notBefore := time.Now().Add(-time.Hour)
	notAfter := notBefore.Add(validity)

	caKey, err := rsa.GenerateKey(rand.Reader, generatedKeyBits)
	if err != nil {
		return nil, nil, err
	}
	caTmpl, err := caTemplate(pkix.Name{CommonName: fmt.Sprintf("%s-ca@%d", host, time.Now().Unix())}, notBefore, notAfter)
	if err != nil {
		return nil, nil, err
	}
	caDER, ca, err := issue(caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		return nil, nil, err
	}

	servingKey, err := rsa.GenerateKey(rand.Reader, generatedKeyBits)
	if err != nil {
		return nil, nil, err
	}
	serial, err := randomSerial()
	if err != nil {
		return nil, nil, err
	}
	serving := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: fmt.Sprintf("%s@%d", host, time.Now().Unix())},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := netutils.ParseIPSloppy(host); ip != nil {
		serving.IPAddresses = append(serving.IPAddresses, ip)
	} else {
		serving.DNSNames = append(serving.DNSNames, host)
	}
	serving.IPAddresses = append(serving.IPAddresses, alternateIPs...)
	serving.DNSNames = append(serving.DNSNames, alternateDNS...)
	servingDER, _, err := issue(serving, ca, servingKey.Public(), caKey)
	if err != nil {
		return nil, nil, err
	}

	var chain bytes.Buffer
	for _, der := range [][]byte{servingDER, caDER} {
		if err := pem.Encode(&chain, &pem.Block{Type: CertificateBlockType, Bytes: der}); err != nil {
			return nil, nil, err
		}
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: keyutil.RSAPrivateKeyBlockType, Bytes: x509.MarshalPKCS1PrivateKey(servingKey)})
	return chain.Bytes(), keyPEM, nil
}

// GenerateSelfSignedCertKey returns a PEM serving certificate for host
// (a DNS name or an IP address) and the alternative names, followed by the
// PEM certificate of the fresh CA that signed it, and the PEM RSA private
// key of the serving certificate. It is valid for a year.
func GenerateSelfSignedCertKey(host string, alternateIPs []net.IP, alternateDNS []string) ([]byte, []byte, error) {
	return GenerateSelfSignedCertKeyWithOptions(SelfSignedCertKeyOptions{Host: host, AlternateIPs: alternateIPs, AlternateDNS: alternateDNS})
}

// GenerateSelfSignedCertKeyWithFixtures is GenerateSelfSignedCertKey that
// reads and saves the pair in fixtureDirectory when it is not empty; see
// SelfSignedCertKeyOptions.FixtureDirectory.
func GenerateSelfSignedCertKeyWithFixtures(host string, alternateIPs []net.IP, alternateDNS []string, fixtureDirectory string) ([]byte, []byte, error) {
	return GenerateSelfSignedCertKeyWithOptions(SelfSignedCertKeyOptions{Host: host, AlternateIPs: alternateIPs, AlternateDNS: alternateDNS, FixtureDirectory: fixtureDirectory})
}

// randomSerial returns a random certificate serial number in
// [1, math.MaxInt64-1].
func randomSerial() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(math.MaxInt64-1))
	if err != nil {
		return nil, err
	}
	return n.Add(n, big.NewInt(1)), nil
}
