package portforward

import (
	"errors"
	"fmt"
	"github.com/kubeclient/client-go/internal/streamadapt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/httpstream"
	httpstreamspdy "k8s.io/apimachinery/pkg/util/httpstream/spdy"
	portforwardconsts "k8s.io/apimachinery/pkg/util/portforward"
	"k8s.io/klog/v2"
	streamhttp "k8s.io/streaming/pkg/httpstream"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/transport/websocket"
)

// PingPeriod is how often SPDY pings are sent over a tunneled connection.
const PingPeriod = 10 * time.Second

// tunnelingDialer upgrades a request to a websocket whose subprotocol is
// "SPDY/3.1+<protocol>" and runs a SPDY client connection inside it.
type tunnelingDialer struct {
	logger    klog.Logger
	url       *url.URL
	transport http.RoundTripper
	holder    websocket.ConnectionHolder
}

// NewSPDYOverWebsocketDialer returns a dialer that tunnels SPDY through a
// websocket connection to url, configured from config.
func NewSPDYOverWebsocketDialer(url *url.URL, config *restclient.Config) (httpstream.Dialer, error) {
	return NewSPDYOverWebsocketDialerWithLogger(klog.Background(), url, config)
}

// NewSPDYOverWebsocketDialerWithLogger is NewSPDYOverWebsocketDialer logging
// through logger.
func NewSPDYOverWebsocketDialerWithLogger(logger klog.Logger, url *url.URL, config *restclient.Config) (httpstream.Dialer, error) {
	if url == nil {
		return nil, errors.New("portforward: tunneling dialer needs a URL")
	}
	transport, holder, err := websocket.RoundTripperFor(config)
	if err != nil {
		return nil, err
	}
	return &tunnelingDialer{logger: logger, url: url, transport: transport, holder: holder}, nil
}

// NewSPDYOverWebsocketDialerForStreaming is NewSPDYOverWebsocketDialer for
// callers using k8s.io/streaming types.
func NewSPDYOverWebsocketDialerForStreaming(url *url.URL, config *restclient.Config) (streamhttp.Dialer, error) {
	return NewSPDYOverWebsocketDialerForStreamingWithLogger(klog.Background(), url, config)
}

// NewSPDYOverWebsocketDialerForStreamingWithLogger is
// NewSPDYOverWebsocketDialerWithLogger for k8s.io/streaming types.
func NewSPDYOverWebsocketDialerForStreamingWithLogger(logger klog.Logger, url *url.URL, config *restclient.Config) (streamhttp.Dialer, error) {
	d, err := NewSPDYOverWebsocketDialerWithLogger(logger, url, config)
	if err != nil {
		return nil, err
	}
	return streamadapt.DialerToStreaming(d), nil
}

// Dial offers each protocol with the SPDY tunneling prefix, and returns a
// SPDY connection over the websocket with the protocol the server chose.
func (d *tunnelingDialer) Dial(protocols ...string) (httpstream.Connection, string, error) {
	req, err := http.NewRequest(http.MethodGet, d.url.String(), nil)
	if err != nil {
		return nil, "", fmt.Errorf("error creating request: %w", err)
	}
	tunneled := make([]string, len(protocols))
	for i, p := range protocols {
		tunneled[i] = portforwardconsts.WebsocketsSPDYTunnelingPrefix + p
	}
	conn, err := websocket.Negotiate(d.transport, d.holder, req, tunneled...)
	if err != nil {
		return nil, "", err
	}
	protocol := strings.TrimPrefix(conn.Subprotocol(), portforwardconsts.WebsocketsSPDYTunnelingPrefix)
	tunnel := NewTunnelingConnectionWithLogger(klog.LoggerWithName(d.logger, "tunnel"), conn)
	spdyConn, err := httpstreamspdy.NewClientConnectionWithPings(tunnel, PingPeriod)
	if err != nil {
		tunnel.Close() //nolint:errcheck
		return nil, "", err
	}
	return spdyConn, protocol, nil
}
