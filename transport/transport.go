package transport

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"

	"github.com/kubeclient/client-go/features"
	"github.com/kubeclient/client-go/internal/tlsfiles"
	"github.com/kubeclient/client-go/tools/metrics"
)

// New builds the round tripper chain described by config: a (possibly
// shared) transport securing the connections, decorated with the
// authentication and header round trippers of HTTPWrappersForConfig.
//
// New may fill in config.TLS.CAData, CertData and KeyData from the named
// files and set the Reload flags.
func New(config *Config) (http.RoundTripper, error) {
	metrics.EnsureRegistered()

	if config.Transport != nil && (config.HasCA() || config.HasCertAuth() || config.HasCertCallback() || config.TLS.Insecure) {
		return nil, errors.New("using a custom transport with TLS certificate options or the insecure flag is not allowed")
	}
	if err := checkHolders(config); err != nil {
		return nil, err
	}

	rt := config.Transport
	if rt == nil {
		var err error
		if rt, err = tlsCache.get(config); err != nil {
			return nil, err
		}
	}
	return HTTPWrappersForConfig(config, rt)
}

// checkHolders rejects holders that wrap no function.
func checkHolders(config *Config) error {
	if h := config.TLS.GetCertHolder; h != nil && h.GetCert == nil {
		return errors.New("misconfigured holder for dialer or cert callback: TLS.GetCertHolder has a nil GetCert")
	}
	if h := config.DialHolder; h != nil && h.Dial == nil {
		return errors.New("misconfigured holder for dialer or cert callback: DialHolder has a nil Dial")
	}
	return nil
}

// TLSConfigFor returns the *tls.Config that secures connections as c asks,
// or nil when c requests nothing TLS specific. Certificate and key files are
// read into c.TLS.CertData/KeyData/CAData.
func TLSConfigFor(c *Config) (*tls.Config, error) {
	wantsTLS := c.HasCA() || c.HasCertAuth() || c.HasCertCallback() || c.TLS.Insecure ||
		c.TLS.ServerName != "" || len(c.TLS.NextProtos) > 0
	switch {
	case !wantsTLS:
		return nil, nil
	case c.HasCA() && c.TLS.Insecure:
		return nil, errors.New("specifying a root certificates file with the insecure flag is not allowed")
	}
	if err := loadTLSFiles(c); err != nil {
		return nil, err
	}
	// TLS 1.0 and 1.1 are not safe enough for talking to a cluster.
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.TLS.Insecure, ServerName: c.TLS.ServerName, NextProtos: c.TLS.NextProtos}
	for _, configure := range []func(*Config, *tls.Config) error{setRootCAs, setClientCertificate} {
		if err := configure(c, tlsConfig); err != nil {
			return nil, err
		}
	}
	return tlsConfig, nil
}

// setRootCAs makes the CA data of c (read from its file by now) the only
// roots tlsConfig trusts; without CA data the system roots stay.
func setRootCAs(c *Config, tlsConfig *tls.Config) error {
	if !c.HasCA() {
		return nil
	}
	roots, err := rootCertPool(c.TLS.CAData)
	if err != nil {
		return fmt.Errorf("unable to load root certificates: %w", err)
	}
	tlsConfig.RootCAs = roots
	return nil
}

// setClientCertificate installs the client certificate source of c, when c
// has one.
func setClientCertificate(c *Config, tlsConfig *tls.Config) error {
	if !c.HasCertAuth() && !c.HasCertCallback() {
		return nil
	}
	source, err := clientCertSource(c)
	if err != nil {
		return err
	}
	tlsConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return source() }
	return nil
}

// clientCertSource returns where the client certificate comes from. Of the
// three sources the first configured wins: inline data (parsed here, so bad
// data fails early), files that are re-read when they change, and the
// caller's callback. Without a certificate the handshake gets an empty one
// and proceeds without client authentication.
func clientCertSource(c *Config) (func() (*tls.Certificate, error), error) {
	none := func() (*tls.Certificate, error) { return &tls.Certificate{}, nil }
	switch {
	case c.HasCertAuth() && !c.TLS.ReloadTLSFiles:
		cert, err := tls.X509KeyPair(c.TLS.CertData, c.TLS.KeyData)
		if err != nil {
			return nil, err
		}
		return func() (*tls.Certificate, error) { return &cert, nil }, nil
	case c.TLS.ReloadTLSFiles:
		return newCertFileLoader(c.TLS.CertFile, c.TLS.KeyFile), nil
	case c.TLS.GetCertHolder != nil:
		holder := c.TLS.GetCertHolder
		return func() (*tls.Certificate, error) {
			cert, err := holder.GetCert()
			if err != nil {
				return nil, err
			}
			if cert == nil {
				return none()
			}
			return cert, nil
		}, nil
	default:
		return none, nil
	}
}

// loadTLSFiles reads the CA, certificate and key files of c into the
// corresponding data fields unless those are already set, and records in the
// Reload flags whether the files are the only source (and so may be re-read
// later).
func loadTLSFiles(c *Config) error {
	if features.FeatureGates().Enabled(features.ClientsAllowCARotation) {
		if c.TLS.CAFile != "" && len(c.TLS.CAData) == 0 {
			c.TLS.ReloadCAFiles = true
		}
	} else if c.TLS.ReloadCAFiles {
		return fmt.Errorf("ReloadCAFiles=true requires %s to be enabled", features.ClientsAllowCARotation)
	}

	if c.TLS.CertFile != "" && len(c.TLS.CertData) == 0 && c.TLS.KeyFile != "" && len(c.TLS.KeyData) == 0 {
		c.TLS.ReloadTLSFiles = true
	}

	return tlsfiles.Load(
		tlsfiles.Field{Data: &c.TLS.CAData, File: c.TLS.CAFile},
		tlsfiles.Field{Data: &c.TLS.CertData, File: c.TLS.CertFile},
		tlsfiles.Field{Data: &c.TLS.KeyData, File: c.TLS.KeyFile},
	)
}

// rootCertPool builds a pool holding exactly the certificates of caData.
//
// Empty caData yields nil (meaning the system roots) unless CA rotation is
// enabled, in which case it yields an empty pool: a CA file that exists but is
// empty must not silently fall back to trusting the system roots.
func rootCertPool(caData []byte) (*x509.CertPool, error) {
	if len(caData) == 0 {
		if features.FeatureGates().Enabled(features.ClientsAllowCARotation) {
			return x509.NewCertPool(), nil
		}
		return nil, nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caData) {
		return nil, explainBadCAData(caData)
	}
	return pool, nil
}

// explainBadCAData finds out why AppendCertsFromPEM accepted nothing from
// data. It always returns an error.
func explainBadCAData(data []byte) error {
	rest := data
	for len(rest) > 0 {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return errors.New("unable to parse bytes as PEM block")
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Errorf("failed to parse certificate: %w", err)
		}
	}
	return errors.New("no valid certificate authority data seen")
}
