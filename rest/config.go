package rest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
	"github.com/kubeclient/client-go/transport"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

// Client-side throttling defaults applied when Config.QPS or Config.Burst is zero.
const (
	DefaultQPS   float32 = 5.0
	DefaultBurst int     = 10
)

// ErrNotInCluster is returned by InClusterConfig when the process does not see
// the service environment variables every pod is started with.
var ErrNotInCluster = errors.New("unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined")

// Config is everything a client needs to talk to one API server: where it is,
// how to authenticate, how to secure the connection, how to encode objects and
// how fast it may send requests.
type Config struct {
	// Host is a host, a host:port pair or a URL. The path of a URL becomes a
	// prefix of every request path (useful behind a relocating proxy).
	Host string
	// APIPath is the API root below Host, such as "/api" or "/apis".
	APIPath string

	// ContentConfig selects the wire format and the API group version.
	ContentConfig

	// Username and Password enable HTTP basic authentication.
	Username string
	Password string `datapolicy:"password"`

	// BearerToken is sent as an Authorization: Bearer header.
	BearerToken string `datapolicy:"token"`

	// BearerTokenFile names a file holding the bearer token. It is re-read
	// periodically, and its latest content wins over BearerToken.
	BearerTokenFile string

	// Impersonate asks the server to act as another user.
	Impersonate ImpersonationConfig

	// AuthProvider names a registered auth provider plugin and its settings.
	AuthProvider *clientcmdapi.AuthProviderConfig

	// AuthConfigPersister lets the AuthProvider store refreshed settings.
	AuthConfigPersister AuthProviderConfigPersister

	// ExecProvider runs an external command to obtain credentials.
	ExecProvider *clientcmdapi.ExecConfig

	// TLSClientConfig holds the TLS settings.
	TLSClientConfig

	// UserAgent overrides the User-Agent header.
	UserAgent string

	// DisableCompression turns off transparent gzip of responses.
	DisableCompression bool

	// Transport replaces the HTTP transport. It cannot be combined with TLS
	// client certificate settings; use WrapTransport to add middleware.
	Transport http.RoundTripper
	// WrapTransport wraps the base transport once it is built. Prefer Wrap
	// over assigning this field so existing wrappers are kept.
	WrapTransport transport.WrapperFunc

	// QPS is the steady request rate allowed by the client-side rate
	// limiter; zero means DefaultQPS and a negative value disables
	// throttling unless RateLimiter is set.
	QPS float32

	// Burst is the number of requests allowed above QPS for short periods;
	// zero means DefaultBurst.
	Burst int

	// RateLimiter, when set, is used instead of a limiter built from QPS and
	// Burst, and may be shared between clients.
	RateLimiter flowcontrol.RateLimiter

	// WarningHandler receives the Warning headers of responses. When both
	// this and WarningHandlerWithContext are nil the process-wide default
	// handler is used; WarningHandlerWithContext wins when both are set.

	WarningHandler WarningHandler

	// WarningHandlerWithContext is the context-aware form of WarningHandler.
	WarningHandlerWithContext WarningHandlerWithContext

	// Timeout bounds every request; zero means no limit.
	Timeout time.Duration

	// Dial opens unencrypted TCP connections.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)

	// Proxy selects the proxy for a request; nil means
	// http.ProxyFromEnvironment and a nil URL means a direct connection.
	Proxy func(*http.Request) (*url.URL, error)
}

// ImpersonationConfig names the identity to impersonate.
type ImpersonationConfig struct {
	// UserName is the user to act as.
	UserName string
	// UID is the unique identifier of that user.
	UID string
	// Groups are the groups to act as a member of.
	Groups []string
	// Extra holds additional authentication attributes.
	Extra map[string][]string
}

// TLSClientConfig holds what is needed to secure the connection to the server.
// Data fields take precedence over the matching file fields.
//
// +k8s:deepcopy-gen=true
type TLSClientConfig struct {
	// Insecure skips verification of the server certificate. For testing only.
	Insecure bool
	// ServerName overrides the name used for SNI and certificate checks.
	ServerName string

	// CertFile is the client certificate file.
	CertFile string
	// KeyFile is the client key file.
	KeyFile string
	// CAFile holds the trusted root certificates.
	CAFile string

	// CertData is a PEM client certificate.
	CertData []byte
	// KeyData is a PEM client key.
	KeyData []byte `datapolicy:"security-key"`
	// CAData holds PEM root certificates.
	CAData []byte

	// NextProtos lists the ALPN protocols to offer, most preferred first.
	NextProtos []string
}

// ContentConfig selects how objects are encoded on the wire.
type ContentConfig struct {
	// AcceptContentTypes is the Accept header to send; when empty the
	// ContentType is used.
	AcceptContentTypes string
	// ContentType is the media type of request bodies (and the default
	// Accept header). Empty means "application/json".
	ContentType string
	// GroupVersion is the API group version the client speaks.
	GroupVersion *schema.GroupVersion
	// NegotiatedSerializer provides encoders and decoders per media type.
	NegotiatedSerializer runtime.NegotiatedSerializer
}

const redacted = "--- REDACTED ---"

var (
	_ fmt.Stringer   = new(Config)
	_ fmt.GoStringer = new(Config)
	_ fmt.Stringer   = TLSClientConfig{}
	_ fmt.GoStringer = TLSClientConfig{}
)

// configForPrinting has Config's fields but none of its methods, so that
// formatting it with %#v does not recurse into String.
type configForPrinting *Config

// redactedPersister stands in for an AuthProviderConfigPersister when a
// Config is printed.
type redactedPersister struct{ AuthProviderConfigPersister }

func (redactedPersister) String() string {
	return "rest.AuthProviderConfigPersister(" + redacted + ")"
}

func (p redactedPersister) GoString() string { return p.String() }

// redactedObject stands in for the exec plugin's free-form configuration
// when a Config is printed.
type redactedObject struct{ runtime.Object }

func (redactedObject) String() string { return "runtime.Object(" + redacted + ")" }

func (o redactedObject) GoString() string { return o.String() }

// String prints the Config with the password, bearer token, key data,
// persister and exec plugin configuration hidden, so a Config can be logged.
func (c *Config) String() string {
	if c == nil {
		return "<nil>"
	}
	cp := CopyConfig(c)
	if cp.Password != "" {
		cp.Password = redacted
	}
	if cp.BearerToken != "" {
		cp.BearerToken = redacted
	}
	if cp.AuthConfigPersister != nil {
		cp.AuthConfigPersister = redactedPersister{cp.AuthConfigPersister}
	}
	if cp.ExecProvider != nil && cp.ExecProvider.Config != nil {
		cp.ExecProvider.Config = redactedObject{cp.ExecProvider.Config}
	}
	return fmt.Sprintf("%#v", configForPrinting(cp))
}

// GoString is String: it keeps %#v from leaking secrets.
func (c *Config) GoString() string { return c.String() }

// sanitizedTLSClientConfig has TLSClientConfig's fields without its methods; its
// name shows in the printed form, as in client-go.
type sanitizedTLSClientConfig TLSClientConfig

// String prints the TLS settings with the key redacted and the certificate
// elided.
func (c TLSClientConfig) String() string {
	p := sanitizedTLSClientConfig(c)
	if len(p.CertData) != 0 {
		p.CertData = []byte("--- TRUNCATED ---")
	}
	if len(p.KeyData) != 0 {
		p.KeyData = []byte(redacted)
	}
	return fmt.Sprintf("%#v", p)
}

// GoString is String: it keeps %#v from leaking the key.
func (c TLSClientConfig) GoString() string { return c.String() }

// DeepCopyInto copies the receiver into out, duplicating every slice.
func (in *TLSClientConfig) DeepCopyInto(out *TLSClientConfig) {
	*out = *in
	out.CertData = cloneBytes(in.CertData)
	out.KeyData = cloneBytes(in.KeyData)
	out.CAData = cloneBytes(in.CAData)
	if in.NextProtos != nil {
		out.NextProtos = append([]string(nil), in.NextProtos...)
	}
}

// DeepCopy returns an independent copy of the receiver.
func (in *TLSClientConfig) DeepCopy() *TLSClientConfig {
	if in == nil {
		return nil
	}
	out := new(TLSClientConfig)
	in.DeepCopyInto(out)
	return out
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// CopyConfig returns a copy of config. Slices, maps and pointers other than
// the exec plugin's configuration object are shared with the original.
func CopyConfig(config *Config) *Config {
	c := &Config{
		Host:                      config.Host,
		APIPath:                   config.APIPath,
		ContentConfig:             config.ContentConfig,
		Username:                  config.Username,
		Password:                  config.Password,
		BearerToken:               config.BearerToken,
		BearerTokenFile:           config.BearerTokenFile,
		Impersonate:               config.Impersonate,
		AuthProvider:              config.AuthProvider,
		AuthConfigPersister:       config.AuthConfigPersister,
		ExecProvider:              config.ExecProvider,
		TLSClientConfig:           config.TLSClientConfig,
		UserAgent:                 config.UserAgent,
		DisableCompression:        config.DisableCompression,
		Transport:                 config.Transport,
		WrapTransport:             config.WrapTransport,
		QPS:                       config.QPS,
		Burst:                     config.Burst,
		RateLimiter:               config.RateLimiter,
		WarningHandler:            config.WarningHandler,
		WarningHandlerWithContext: config.WarningHandlerWithContext,
		Timeout:                   config.Timeout,
		Dial:                      config.Dial,
		Proxy:                     config.Proxy,
	}
	if config.ExecProvider != nil && config.ExecProvider.Config != nil {
		// Give the copy its own ExecConfig so replacing the plugin's
		// configuration object never reaches the original.
		exec := *config.ExecProvider
		exec.Config = config.ExecProvider.Config.DeepCopyObject()
		c.ExecProvider = &exec
	}
	return c
}

// AnonymousClientConfig returns a copy of config that keeps how to reach and
// trust the server but drops every credential (client certificate, token,
// basic auth, impersonation, auth and exec providers) and every custom
// transport.
func AnonymousClientConfig(config *Config) *Config {
	return &Config{
		Host:          config.Host,
		APIPath:       config.APIPath,
		ContentConfig: config.ContentConfig,
		TLSClientConfig: TLSClientConfig{
			Insecure:   config.Insecure,
			ServerName: config.ServerName,
			CAFile:     config.CAFile,
			CAData:     config.CAData,
			NextProtos: config.NextProtos,
		},
		RateLimiter:               config.RateLimiter,
		WarningHandler:            config.WarningHandler,
		WarningHandlerWithContext: config.WarningHandlerWithContext,
		UserAgent:                 config.UserAgent,
		DisableCompression:        config.DisableCompression,
		QPS:                       config.QPS,
		Burst:                     config.Burst,
		Timeout:                   config.Timeout,
		Dial:                      config.Dial,
		Proxy:                     config.Proxy,
	}
}
