package testenv

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/url"
	"os"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/testenv/faultproxy"
)

// FaultProxy starts a fault-injecting proxy in front of kube-apiserver
// with schedule s. It serves HTTPS with kube-apiserver's serving
// certificate, so a configuration from ThroughProxy verifies it as it
// would the server. It survives kube-apiserver restarts (requests in the
// meantime are answered 502). The caller closes it.
func (env *Env) FaultProxy(s faultproxy.Schedule) (*faultproxy.Proxy, error) {
	upstream, err := url.Parse(env.Host)
	if err != nil {
		return nil, err
	}
	caPEM, err := os.ReadFile(env.CAFile)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("testenv: %s holds no certificate", env.CAFile)
	}
	serving, err := tls.LoadX509KeyPair(env.pki.ServingCertFile, env.pki.ServingKeyFile)
	if err != nil {
		return nil, err
	}
	return faultproxy.New(faultproxy.Config{
		Upstream:    upstream,
		UpstreamTLS: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		ServeTLS:    &tls.Config{Certificates: []tls.Certificate{serving}, MinVersion: tls.VersionTLS12},
		Schedule:    s,
	})
}

// ThroughProxy returns a copy of cfg that reaches the server through p.
func ThroughProxy(cfg *rest.Config, p *faultproxy.Proxy) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.Host = p.URL
	return cfg
}
