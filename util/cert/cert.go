package cert

import (
	"bytes"
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

// NewSelfSignedCACert returns a CA certificate for key, signed by key
// itself. It is valid for ten years from now, starting at cfg.NotBefore when
// set and now otherwise. The subject is cfg.CommonName and
// cfg.Organization, and a non-empty CommonName is also its DNS name.
func NewSelfSignedCACert(cfg Config, key crypto.Signer) (*x509.Certificate, error) {
	now := time.Now()
	serial, err := randomSerial()
	if err != nil {
		return nil, err
	}
	notBefore := now.UTC()
	if !cfg.NotBefore.IsZero() {
		notBefore = cfg.NotBefore.UTC()
	}
	template := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: cfg.CommonName, Organization: cfg.Organization},
		NotBefore:             notBefore,
		NotAfter:              now.Add(caValidity).UTC(),
		KeyUsage:              x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	if cfg.CommonName != "" {
		template.DNSNames = []string{cfg.CommonName}
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, key.Public(), key)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
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

// GenerateSelfSignedCertKey returns a PEM serving certificate for host
// (a DNS name or an IP address) and the alternative names, followed by the
// PEM certificate of the fresh CA that signed it, and the PEM RSA private
// key of the serving certificate. It is valid for a year.
func GenerateSelfSignedCertKey(host string, alternateIPs []net.IP, alternateDNS []string) ([]byte, []byte, error) {
	return GenerateSelfSignedCertKeyWithOptions(SelfSignedCertKeyOptions{
		Host:         host,
		AlternateIPs: alternateIPs,
		AlternateDNS: alternateDNS,
	})
}

// GenerateSelfSignedCertKeyWithFixtures is GenerateSelfSignedCertKey that
// reads and saves the pair in fixtureDirectory when it is not empty; see
// SelfSignedCertKeyOptions.FixtureDirectory.
func GenerateSelfSignedCertKeyWithFixtures(host string, alternateIPs []net.IP, alternateDNS []string, fixtureDirectory string) ([]byte, []byte, error) {
	return GenerateSelfSignedCertKeyWithOptions(SelfSignedCertKeyOptions{
		Host:             host,
		AlternateIPs:     alternateIPs,
		AlternateDNS:     alternateDNS,
		FixtureDirectory: fixtureDirectory,
	})
}

// GenerateSelfSignedCertKeyWithOptions returns a serving certificate chain
// and key as GenerateSelfSignedCertKey does, configured by opts. The
// certificates become valid an hour before now, to tolerate clock skew.
func GenerateSelfSignedCertKeyWithOptions(opts SelfSignedCertKeyOptions) ([]byte, []byte, error) {
	validity := opts.MaxAge
	if validity == 0 {
		validity = defaultServingValidity
	}

	var certFixture, keyFixture string
	if opts.FixtureDirectory != "" {
		ips := make([]string, 0, len(opts.AlternateIPs))
		for _, ip := range opts.AlternateIPs {
			ips = append(ips, ip.String())
		}
		base := opts.Host + "_" + strings.Join(ips, "-") + "_" + strings.Join(opts.AlternateDNS, "-")
		certFixture = filepath.Join(opts.FixtureDirectory, base+".crt")
		keyFixture = filepath.Join(opts.FixtureDirectory, base+".key")
		if certPEM, err := os.ReadFile(certFixture); err == nil {
			keyPEM, err := os.ReadFile(keyFixture)
			if err != nil {
				return nil, nil, fmt.Errorf("cert %s can be read, but key %s cannot: %v", certFixture, keyFixture, err)
			}
			return certPEM, keyPEM, nil
		}
		validity = fixtureValidity
	}

	notBefore := time.Now().Add(-time.Hour)
	notAfter := notBefore.Add(validity)

	caKey, err := rsa.GenerateKey(rand.Reader, generatedKeyBits)
	if err != nil {
		return nil, nil, err
	}
	caSerial, err := randomSerial()
	if err != nil {
		return nil, nil, err
	}
	caTemplate := &x509.Certificate{
		SerialNumber:          caSerial,
		Subject:               pkix.Name{CommonName: fmt.Sprintf("%s-ca@%d", opts.Host, time.Now().Unix())},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, err
	}

	servingKey, err := rsa.GenerateKey(rand.Reader, generatedKeyBits)
	if err != nil {
		return nil, nil, err
	}
	servingSerial, err := randomSerial()
	if err != nil {
		return nil, nil, err
	}
	servingTemplate := &x509.Certificate{
		SerialNumber:          servingSerial,
		Subject:               pkix.Name{CommonName: fmt.Sprintf("%s@%d", opts.Host, time.Now().Unix())},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	if ip := netutils.ParseIPSloppy(opts.Host); ip != nil {
		servingTemplate.IPAddresses = []net.IP{ip}
	} else {
		servingTemplate.DNSNames = []string{opts.Host}
	}
	servingTemplate.IPAddresses = append(servingTemplate.IPAddresses, opts.AlternateIPs...)
	servingTemplate.DNSNames = append(servingTemplate.DNSNames, opts.AlternateDNS...)
	servingDER, err := x509.CreateCertificate(rand.Reader, servingTemplate, ca, &servingKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}

	var certPEM bytes.Buffer
	for _, der := range [][]byte{servingDER, caDER} {
		if err := pem.Encode(&certPEM, &pem.Block{Type: CertificateBlockType, Bytes: der}); err != nil {
			return nil, nil, err
		}
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: keyutil.RSAPrivateKeyBlockType, Bytes: x509.MarshalPKCS1PrivateKey(servingKey)})

	if opts.FixtureDirectory != "" {
		if err := os.WriteFile(certFixture, certPEM.Bytes(), 0o644); err != nil {
			return nil, nil, fmt.Errorf("failed to write cert fixture to %s: %v", certFixture, err)
		}
		if err := os.WriteFile(keyFixture, keyPEM, 0o600); err != nil {
			return nil, nil, fmt.Errorf("failed to write key fixture to %s: %v", keyFixture, err)
		}
	}
	return certPEM.Bytes(), keyPEM, nil
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
