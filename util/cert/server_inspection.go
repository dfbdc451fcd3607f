package cert

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/url"
	"strings"
)

// GetClientCANames connects to the TLS server at apiHost ("host:port") and
// returns the distinguished names of the certificate authorities it
// accepts for client certificates. The server's own certificate is not
// verified: this is for inspecting a server.
func GetClientCANames(apiHost string) ([]string, error) {
	names := []string{}
	config := &tls.Config{
		InsecureSkipVerify: true, // inspection only; nothing is trusted
		GetClientCertificate: func(req *tls.CertificateRequestInfo) (*tls.Certificate, error) {
			names = make([]string, 0, len(req.AcceptableCAs))
			for _, dn := range req.AcceptableCAs {
				names = append(names, string(dn))
			}
			// Present no certificate; the handshake only needs to get here.
			return &tls.Certificate{}, nil
		},
	}
	conn, err := tls.Dial("tcp", apiHost, config)
	if err != nil {
		return nil, err
	}
	if err := conn.Close(); err != nil {
		return nil, err
	}
	return names, nil
}

// GetClientCANamesForURL is GetClientCANames for the host of a server URL
// as written in kubeconfig files.
func GetClientCANamesForURL(kubeConfigURL string) ([]string, error) {
	u, err := url.Parse(kubeConfigURL)
	if err != nil {
		return nil, err
	}
	return GetClientCANames(u.Host)
}

// GetServingCertificates connects to the TLS server at apiHost
// ("host:port") and returns the certificate chain it presents, both parsed
// and PEM encoded (one certificate per entry, without trailing newline).
// serverName, when not empty, is sent as SNI. The chain is not verified.
func GetServingCertificates(apiHost, serverName string) ([]*x509.Certificate, [][]byte, error) {
	config := &tls.Config{
		InsecureSkipVerify: true, // inspection only; nothing is trusted
		ServerName:         serverName,
	}
	conn, err := tls.Dial("tcp", apiHost, config)
	if err != nil {
		return nil, nil, err
	}
	if err := conn.Close(); err != nil {
		return nil, nil, fmt.Errorf("failed to close connection : %v", err)
	}

	chain := conn.ConnectionState().PeerCertificates
	encoded := [][]byte{}
	for _, c := range chain {
		pemCert, err := EncodeCertificates(c)
		if err != nil {
			return nil, nil, err
		}
		encoded = append(encoded, []byte(strings.TrimSpace(string(pemCert))))
	}
	return chain, encoded, nil
}

// GetServingCertificatesForURL is GetServingCertificates for the host of a
// server URL as written in kubeconfig files.
func GetServingCertificatesForURL(kubeConfigURL, serverName string) ([]*x509.Certificate, [][]byte, error) {
	u, err := url.Parse(kubeConfigURL)
	if err != nil {
		return nil, nil, err
	}
	return GetServingCertificates(u.Host, serverName)
}
