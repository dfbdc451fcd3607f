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
	if _, err := handshake(apiHost, config, func(err error) error { return err }); err != nil {
		return nil, err
	}
	return names, nil
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
	closeFailed := func(err error) error { return fmt.Errorf("failed to close connection : %v", err) }
	state, err := handshake(apiHost, config, closeFailed)
	if err != nil {
		return nil, nil, err
	}
	chain := state.PeerCertificates
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

// GetClientCANamesForURL is GetClientCANames for the host of a server URL
// as written in kubeconfig files.
func GetClientCANamesForURL(kubeConfigURL string) ([]string, error) {
	u, err := url.Parse(kubeConfigURL)
	if err != nil {
		return nil, err
	}
	return GetClientCANames(u.Host)
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

// handshake connects to apiHost with config, completes the TLS handshake
// and closes the connection again, returning what the handshake
// established. closeErr words a failure to close.
func handshake(apiHost string, config *tls.Config, closeErr func(error) error) (tls.ConnectionState, error) {
	conn, err := tls.Dial("tcp", apiHost, config)
	if err != nil {
		return tls.ConnectionState{}, err
	}
	state := conn.ConnectionState()
	if err := conn.Close(); err != nil {
		return tls.ConnectionState{}, closeErr(err)
	}
	return state, nil
}
