package rest

import (
	"context"
	"errors"
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
	c := *config
	if exec := config.ExecProvider; exec != nil && exec.Config != nil {
		// The copy gets its own ExecConfig so that replacing the plugin's
		// configuration object never reaches the original.
		own := *exec
		own.Config = exec.Config.DeepCopyObject()
		c.ExecProvider = &own
	}
	return &c
}

// AnonymousClientConfig returns a copy of config that keeps how to reach and
// trust the server but drops every credential (client certificate, token,
// basic auth, impersonation, auth and exec providers) and every custom
// transport.
func AnonymousClientConfig(config *Config) *Config {
	c := *config
	// Who the client is: all of it goes.
	c.Username, c.Password = "", ""
	c.BearerToken, c.BearerTokenFile = "", ""
	c.Impersonate = ImpersonationConfig{}
	c.AuthProvider, c.AuthConfigPersister, c.ExecProvider = nil, nil, nil
	// A custom transport may carry credentials of its own.
	c.Transport, c.WrapTransport = nil, nil
	// Of the TLS settings only those that verify the server stay.
	c.TLSClientConfig = TLSClientConfig{
		Insecure:   config.Insecure,
		ServerName: config.ServerName,
		CAFile:     config.CAFile,
		CAData:     config.CAData,
		NextProtos: config.NextProtos,
	}
	return &c
}
