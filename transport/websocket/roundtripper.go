package websocket

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	gwebsocket "github.com/gorilla/websocket"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"

	restclient "github.com/kubeclient/client-go/rest"
)

// dataBufferSize is the payload size of one websocket data frame; the
// read/write buffers add room for the channel byte.
const dataBufferSize = 32 * 1024

// maxErrorBody bounds how much of a refused upgrade's body is read.
const maxErrorBody = 64 * 1024

// ConnectionHolder gives access to the websocket connection established by a
// round trip, and to the buffer size used for its frames.
type ConnectionHolder interface {
	DataBufferSize() int
	Connection() *gwebsocket.Conn
}

// RoundTripper dials a WebSocket endpoint using the request's headers and
// keeps the resulting connection in Conn. It is good for one round trip only.
type RoundTripper struct {
	// TLSConfig holds the TLS settings used to reach the server.
	TLSConfig *tls.Config
	// Proxier picks the proxy for a request; nil, or a nil URL, means none.
	Proxier func(req *http.Request) (*url.URL, error)
	// Conn is the upgraded connection once RoundTrip has succeeded.
	Conn *gwebsocket.Conn
}

var _ ConnectionHolder = &RoundTripper{}

// TLSClientConfig returns the TLS configuration (net.TLSClientConfigHolder).
func (rt *RoundTripper) TLSClientConfig() *tls.Config { return rt.TLSConfig }

// Connection returns the connection established by RoundTrip, or nil.
func (rt *RoundTripper) Connection() *gwebsocket.Conn { return rt.Conn }

// DataBufferSize returns the payload size of websocket data frames.
func (rt *RoundTripper) DataBufferSize() int { return dataBufferSize }

// RoundTrip performs the websocket handshake described by request: the
// subprotocols to offer come from its Sec-WebSocket-Protocol header, the
// remaining headers are sent as they are. On success the connection is
// stored in Conn and the 101 response is returned. A refused upgrade returns
// an *httpstream.UpgradeFailureError whose cause is the server's Status.
func (rt *RoundTripper) RoundTrip(request *http.Request) (retResp *http.Response, retErr error) {
	if request == nil || request.URL == nil {
		return nil, errors.New("websocket: request or its URL is nil")
	}
	offered := splitProtocols(request.Header.Values("Sec-Websocket-Protocol"))
	header := request.Header.Clone()
	for _, h := range []string{"Sec-Websocket-Protocol", "Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions", "Upgrade", "Connection"} {
		header.Del(h)
	}

	wsURL := *request.URL
	switch wsURL.Scheme {
	case "https", "wss":
		wsURL.Scheme = "wss"
	case "http", "ws", "":
		wsURL.Scheme = "ws"
	default:
		return nil, fmt.Errorf("websocket: unsupported URL scheme %q", request.URL.Scheme)
	}

	dialer := gwebsocket.Dialer{
		Proxy:           rt.Proxier,
		TLSClientConfig: rt.TLSConfig,
		Subprotocols:    offered,
		ReadBufferSize:  dataBufferSize + 1024,
		WriteBufferSize: dataBufferSize + 1024,
	}
	conn, resp, err := dialer.DialContext(request.Context(), wsURL.String(), header)
	if err != nil {
		if errors.Is(err, gwebsocket.ErrBadHandshake) && resp != nil {
			return nil, &httpstream.UpgradeFailureError{Cause: upgradeError(resp)}
		}
		return nil, &httpstream.UpgradeFailureError{Cause: err}
	}
	if len(offered) > 0 && !contains(offered, conn.Subprotocol()) {
		conn.Close() //nolint:errcheck
		return nil, &httpstream.UpgradeFailureError{Cause: fmt.Errorf("invalid protocol, expected one of %q, got %q", offered, conn.Subprotocol())}
	}
	rt.Conn = conn
	return resp, nil
}

// upgradeError turns the body of a refused upgrade into an error: a
// metav1.Status becomes a StatusError, anything else a plain error quoting
// the HTTP status and the body.
func upgradeError(resp *http.Response) error {
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close() //nolint:errcheck
	}
	var status metav1.Status
	if err := json.Unmarshal(body, &status); err == nil && status.Kind == "Status" {
		return &apierrors.StatusError{ErrStatus: status}
	}
	msg := strings.TrimSpace(string(body))
	if msg == "" {
		return fmt.Errorf("unable to upgrade connection: %s", resp.Status)
	}
	return fmt.Errorf("unable to upgrade connection: %s: %s", resp.Status, msg)
}

func splitProtocols(values []string) []string {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// RoundTripperFor returns a round tripper carrying config's authentication
// and wrappers around a websocket RoundTripper, and that RoundTripper as the
// ConnectionHolder from which the connection is taken after the round trip.
func RoundTripperFor(config *restclient.Config) (http.RoundTripper, ConnectionHolder, error) {
	if config == nil {
		return nil, nil, errors.New("websocket: rest config is nil")
	}
	tlsConfig, err := restclient.TLSConfigFor(config)
	if err != nil {
		return nil, nil, err
	}
	proxy := http.ProxyFromEnvironment
	if config.Proxy != nil {
		proxy = config.Proxy
	}
	upgrade := &RoundTripper{TLSConfig: tlsConfig, Proxier: proxy}
	wrapped, err := restclient.HTTPWrappersForConfig(config, upgrade)
	if err != nil {
		return nil, nil, err
	}
	return wrapped, upgrade, nil
}

// Negotiate offers protocols on req, performs the round trip through rt (which
// must end in the RoundTripper behind connectionInfo, see RoundTripperFor) and
// returns the upgraded connection.
func Negotiate(rt http.RoundTripper, connectionInfo ConnectionHolder, req *http.Request, protocols ...string) (*gwebsocket.Conn, error) {
	if rt == nil || connectionInfo == nil || req == nil {
		return nil, errors.New("websocket: Negotiate needs a round tripper, a connection holder and a request")
	}
	if len(protocols) > 0 {
		req.Header.Set("Sec-Websocket-Protocol", strings.Join(protocols, ", "))
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp != nil && resp.Body != nil {
		resp.Body.Close() //nolint:errcheck
	}
	conn := connectionInfo.Connection()
	if conn == nil {
		return nil, errors.New("websocket: round trip succeeded but no connection was established")
	}
	return conn, nil
}
