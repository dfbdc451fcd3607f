package rest

import (
	"crypto/tls"
	"errors"
	"net/http"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	"github.com/kubeclient/client-go/plugin/pkg/client/auth/exec"
	"github.com/kubeclient/client-go/tools/metrics"
	"github.com/kubeclient/client-go/transport"
)

// HTTPClientFor returns an HTTP client carrying the authentication and TLS
// settings of config. When config needs nothing special (default transport
// and no timeout) it is http.DefaultClient.
func HTTPClientFor(config *Config) (*http.Client, error) {
	rt, err := TransportFor(config)
	if err != nil {
		return nil, err
	}
	if rt == http.DefaultTransport && config.Timeout <= 0 {
		return http.DefaultClient, nil
	}
	return &http.Client{Transport: rt, Timeout: config.Timeout}, nil
}

// TLSConfigFor returns the tls.Config implied by config, or nil when config
// asks for no transport security.
func TLSConfigFor(config *Config) (*tls.Config, error) {
	tc, err := config.TransportConfig()
	if err != nil {
		return nil, err
	}
	return transport.TLSConfigFor(tc)
}

// TransportFor returns a RoundTripper carrying the authentication and TLS
// settings of config; http.DefaultTransport when nothing special is needed.
func TransportFor(config *Config) (http.RoundTripper, error) {
	tc, err := config.TransportConfig()
	if err != nil {
		return nil, err
	}
	return transport.New(tc)
}

// HTTPWrappersForConfig layers the header-level behaviour of config
// (authentication, impersonation, user agent, wrappers) over rt, for callers
// that manage the connection themselves (WebSocket, HTTP/2 upgrades).
func HTTPWrappersForConfig(config *Config, rt http.RoundTripper) (http.RoundTripper, error) {
	tc, err := config.TransportConfig()
	if err != nil {
		return nil, err
	}
	return transport.HTTPWrappersForConfig(tc, rt)
}

// TransportConfig translates c into the transport package's Config. An exec
// provider contributes its credentials to the result; an auth provider plugin
// is added as a wrapper. The two cannot be combined.
func (c *Config) TransportConfig() (*transport.Config, error) {
	metrics.EnsureRegistered()
	tc := &transport.Config{
		UserAgent:          c.UserAgent,
		Username:           c.Username,
		Password:           c.Password,
		BearerToken:        c.BearerToken,
		BearerTokenFile:    c.BearerTokenFile,
		Impersonate:        transport.ImpersonationConfig(c.Impersonate),
		DisableCompression: c.DisableCompression,
		Transport:          c.Transport,
		WrapTransport:      c.WrapTransport,
		Proxy:              c.Proxy,
		TLS:                c.TLSClientConfig.transportTLS(),
	}
	if c.Dial != nil {
		tc.DialHolder = &transport.DialHolder{Dial: c.Dial}
	}

	if c.ExecProvider != nil && c.AuthProvider != nil {
		return nil, errors.New("execProvider and authProvider cannot be used in combination")
	}
	if c.ExecProvider != nil {
		var cluster *clientauthentication.Cluster
		if c.ExecProvider.ProvideClusterInfo {
			var err error
			if cluster, err = ConfigToExecCluster(c); err != nil {
				return nil, err
			}
		}
		authenticator, err := exec.GetAuthenticator(c.ExecProvider, cluster)
		if err != nil {
			return nil, err
		}
		if err := authenticator.UpdateTransportConfig(tc); err != nil {
			return nil, err
		}
	}
	if c.AuthProvider != nil {
		provider, err := GetAuthProvider(c.Host, c.AuthProvider, c.AuthConfigPersister)
		if err != nil {
			return nil, err
		}
		tc.Wrap(provider.WrapTransport)
	}
	return tc, nil
}

// transportTLS maps the TLS settings onto the transport package's form.
func (c TLSClientConfig) transportTLS() transport.TLSConfig {
	return transport.TLSConfig{
		Insecure:   c.Insecure,
		ServerName: c.ServerName,
		NextProtos: c.NextProtos,
		CAData:     c.CAData,
		CAFile:     c.CAFile,
		CertData:   c.CertData,
		CertFile:   c.CertFile,
		KeyData:    c.KeyData,
		KeyFile:    c.KeyFile,
	}
}

// Wrap adds fn to the transport middleware of c; it runs after the wrappers
// already configured.
func (c *Config) Wrap(fn transport.WrapperFunc) {
	c.WrapTransport = transport.Wrappers(c.WrapTransport, fn)
}
