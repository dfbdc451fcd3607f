package spdy

import (
	"fmt"
	"github.com/kubeclient/client-go/internal/streamadapt"
	"net/http"
	"net/url"
	"time"

	"k8s.io/apimachinery/pkg/util/httpstream"
	httpstreamspdy "k8s.io/apimachinery/pkg/util/httpstream/spdy"
	streamhttp "k8s.io/streaming/pkg/httpstream"

	restclient "github.com/kubeclient/client-go/rest"
)

// pingPeriod is how often the client pings the server to keep idle SPDY
// connections alive through proxies and load balancers.
const pingPeriod = 5 * time.Second

// Upgrader validates a response from the server after a SPDY upgrade.
type Upgrader interface {
	// NewConnection validates the response and creates a new Connection.
	NewConnection(resp *http.Response) (httpstream.Connection, error)
}

// RoundTripperFor returns a round tripper that performs SPDY upgrades with
// the TLS, proxy and authentication settings of config, together with the
// Upgrader that turns the upgraded response into a connection.
func RoundTripperFor(config *restclient.Config) (http.RoundTripper, Upgrader, error) {
	if config == nil {
		return nil, nil, fmt.Errorf("spdy: rest config is nil")
	}
	tlsConfig, err := restclient.TLSConfigFor(config)
	if err != nil {
		return nil, nil, err
	}
	proxy := http.ProxyFromEnvironment
	if config.Proxy != nil {
		proxy = config.Proxy
	}
	upgrader, err := httpstreamspdy.NewRoundTripperWithConfig(httpstreamspdy.RoundTripperConfig{
		TLS:        tlsConfig,
		Proxier:    proxy,
		PingPeriod: pingPeriod,
	})
	if err != nil {
		return nil, nil, err
	}
	wrapped, err := restclient.HTTPWrappersForConfig(config, upgrader)
	if err != nil {
		return nil, nil, err
	}
	return wrapped, upgrader, nil
}

// NewUpgraderForStreaming adapts an upgrader from k8s.io/streaming to Upgrader.
func NewUpgraderForStreaming(upgrader streamhttp.UpgradeRoundTripper) Upgrader {
	return streamingUpgrader{upgrader}
}

type streamingUpgrader struct {
	delegate streamhttp.UpgradeRoundTripper
}

func (u streamingUpgrader) NewConnection(resp *http.Response) (httpstream.Connection, error) {
	c, err := u.delegate.NewConnection(resp)
	if err != nil {
		return nil, err
	}
	return streamadapt.FromStreaming(c), nil
}

// dialer implements httpstream.Dialer by issuing one upgrade request.
type dialer struct {
	client   *http.Client
	upgrader Upgrader
	method   string
	url      *url.URL
}

var _ httpstream.Dialer = &dialer{}

// NewDialer returns a dialer that sends method to url with client and
// upgrades the response to SPDY with upgrader.
func NewDialer(upgrader Upgrader, client *http.Client, method string, url *url.URL) httpstream.Dialer {
	return &dialer{client: client, upgrader: upgrader, method: method, url: url}
}

// Dial sends the upgrade request offering protocols and returns the
// connection and the protocol the server chose.
func (d *dialer) Dial(protocols ...string) (httpstream.Connection, string, error) {
	if d.url == nil {
		return nil, "", fmt.Errorf("spdy: dialer has no URL")
	}
	req, err := http.NewRequest(d.method, d.url.String(), nil)
	if err != nil {
		return nil, "", fmt.Errorf("error creating request: %w", err)
	}
	return Negotiate(d.upgrader, d.client, req, protocols...)
}

// NewDialerForStreaming is NewDialer for callers using k8s.io/streaming types.
func NewDialerForStreaming(upgrader Upgrader, client *http.Client, method string, url *url.URL) streamhttp.Dialer {
	return streamingDialer{NewDialer(upgrader, client, method, url)}
}

type streamingDialer struct{ d httpstream.Dialer }

func (s streamingDialer) Dial(protocols ...string) (streamhttp.Connection, string, error) {
	c, p, err := s.d.Dial(protocols...)
	if err != nil {
		return nil, "", err
	}
	return streamadapt.AsStreaming(c), p, nil
}

// Negotiate sends req through client offering protocols in the
// X-Stream-Protocol-Version header, upgrades the response with upgrader and
// returns the connection and the protocol the server selected. The client's
// transport must be the upgrading round tripper from RoundTripperFor.
func Negotiate(upgrader Upgrader, client *http.Client, req *http.Request, protocols ...string) (httpstream.Connection, string, error) {
	if upgrader == nil || client == nil || req == nil {
		return nil, "", fmt.Errorf("spdy: Negotiate needs an upgrader, a client and a request")
	}
	for _, p := range protocols {
		req.Header.Add(httpstream.HeaderProtocolVersion, p)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("error sending request: %w", err)
	}
	defer resp.Body.Close() //nolint:errcheck
	conn, err := upgrader.NewConnection(resp)
	if err != nil {
		return nil, "", err
	}
	return conn, resp.Header.Get(httpstream.HeaderProtocolVersion), nil
}

// NegotiateStreaming is Negotiate returning a k8s.io/streaming connection.
func NegotiateStreaming(upgrader Upgrader, client *http.Client, req *http.Request, protocols ...string) (streamhttp.Connection, string, error) {
	c, p, err := Negotiate(upgrader, client, req, protocols...)
	if err != nil {
		return nil, "", err
	}
	return streamadapt.AsStreaming(c), p, nil
}
