package transport

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/url"
)

// Config describes the transport a client wants: how to secure and dial the
// connection and which credentials and headers to put on every request.
type Config struct {
	// UserAgent, when non-empty, is sent as the User-Agent header of requests
	// that do not carry one already.
	UserAgent string

	// TLS holds the transport level security settings.
	TLS TLSConfig

	// Username and Password enable HTTP basic authentication.
	Username string
	Password string `datapolicy:"password"`

	// BearerToken is sent as "Authorization: Bearer <token>".
	BearerToken string `datapolicy:"token"`

	// BearerTokenFile names a file holding a bearer token. The file is
	// re-read periodically and its last successfully read content wins over
	// BearerToken.
	BearerTokenFile string

	// Impersonate names the identity the requests should act as.
	Impersonate ImpersonationConfig

	// DisableCompression turns off the transparent gzip request/response
	// compression of net/http.
	DisableCompression bool

	// Transport, when set, is used as the bottom of the round tripper chain
	// instead of a transport built from TLS. It cannot be combined with
	// certificate options or Insecure. Prefer WrapTransport for decorating.
	Transport http.RoundTripper

	// WrapTransport is applied to the bottom transport (the one built from
	// TLS, Transport, or http.DefaultTransport) before the authentication and
	// header decorators of this package are layered on top.
	//
	// Use Wrap to add a wrapper rather than assigning this field, so that
	// wrappers installed earlier are kept.
	WrapTransport WrapperFunc

	// DialHolder carries a custom dial function for the underlying TCP
	// connections. The pointer indirection lets configs that share a holder
	// share a cached transport.
	DialHolder *DialHolder

	// Proxy chooses the proxy for each request. When nil,
	// http.ProxyFromEnvironment is used; a nil *url.URL result means a direct
	// connection. Configs with a Proxy function are never cached.
	//
	// socks5 proxies are not supported for SPDY streaming endpoints.
	Proxy func(*http.Request) (*url.URL, error)
}

// DialHolder wraps a dial function in a struct so that a pointer to it can be
// compared and used as part of a transport cache key.
type DialHolder struct {
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// ImpersonationConfig names the user, UID, groups and extra attributes that
// requests impersonate. The fields mirror user.Info of the API server.
type ImpersonationConfig struct {
	// UserName is the impersonated user name (user.Info.GetName()).
	UserName string
	// UID is the impersonated UID (user.Info.GetUID()).
	UID string
	// Groups are the impersonated groups (user.Info.GetGroups()).
	Groups []string
	// Extra holds the impersonated extra attributes (user.Info.GetExtra()).
	Extra map[string][]string
}

// TLSConfig holds the TLS settings of a transport.
type TLSConfig struct {
	CAFile         string // CAFile is a PEM file of trusted root certificates for the server.
	CertFile       string // CertFile is a PEM file holding the client certificate.
	KeyFile        string // KeyFile is a PEM file holding the client private key.
	ReloadTLSFiles bool   // ReloadTLSFiles marks CertFile/KeyFile as the source of the client certificate, to be re-read on change.
	ReloadCAFiles  bool   // ReloadCAFiles marks CAFile as the source of the roots, to be re-read on change.

	Insecure   bool   // Insecure skips verification of the server certificate. For testing only.
	ServerName string // ServerName overrides the name used for SNI and for verifying the server certificate.

	CAData   []byte // CAData holds PEM root certificates; it takes precedence over CAFile.
	CertData []byte // CertData holds the PEM client certificate; it takes precedence over CertFile.
	KeyData  []byte // KeyData holds the PEM client key; it takes precedence over KeyFile.

	// NextProtos lists the ALPN protocols to offer, most preferred first, and
	// becomes tls.Config.NextProtos. ["http/1.1"] restricts the connection to
	// HTTP/1.1; ["http/1.1", "h2"] states a preference the server may ignore.
	NextProtos []string

	// GetCertHolder supplies the client certificate through a callback. Cert
	// and key data or files take precedence over it. The pointer indirection
	// keeps configs cacheable.
	GetCertHolder *GetCertHolder
}

// GetCertHolder wraps a client certificate callback in a struct so that a
// pointer to it can be compared and used as part of a transport cache key.
type GetCertHolder struct {
	GetCert func() (*tls.Certificate, error)
}

// HasCA reports whether c names a certificate authority, as data or as a file.
func (c *Config) HasCA() bool {
	return c.TLS.CAFile != "" || len(c.TLS.CAData) != 0
}

// HasBasicAuth reports whether c asks for basic authentication.
func (c *Config) HasBasicAuth() bool {
	return len(c.Username) != 0
}

// HasTokenAuth reports whether c asks for bearer token authentication, with a
// literal token or a token file.
func (c *Config) HasTokenAuth() bool {
	return c.BearerTokenFile != "" || c.BearerToken != ""
}

// HasCertAuth reports whether c holds both a client certificate and its key,
// each as data or as a file.
func (c *Config) HasCertAuth() bool {
	tls := &c.TLS
	return (tls.CertFile != "" || len(tls.CertData) != 0) && (tls.KeyFile != "" || len(tls.KeyData) != 0)
}

// HasCertCallback reports whether c obtains its client certificate from a
// callback.
func (c *Config) HasCertCallback() bool {
	return c.TLS.GetCertHolder != nil
}

// Wrap appends fn to the wrappers applied to the bottom transport. fn wraps
// the result of the wrappers installed before it.
func (c *Config) Wrap(fn WrapperFunc) {
	c.WrapTransport = Wrappers(c.WrapTransport, fn)
}
