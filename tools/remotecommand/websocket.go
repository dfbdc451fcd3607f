package remotecommand

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/transport/websocket"
)

// websocketProtocols are offered in order of preference.
var websocketProtocols = []string{
	remotecommandconsts.StreamProtocolV5Name,
	remotecommandconsts.StreamProtocolV4Name,
}

// wsExecutor runs sessions over WebSocket upgrades of method requests to url.
type wsExecutor struct {
	config    *restclient.Config
	method    string
	url       string
	protocols []string
}

// NewWebSocketExecutor returns an Executor that speaks v5 (or v4)
// channel.k8s.io over a WebSocket connection to url.
func NewWebSocketExecutor(config *restclient.Config, method, url string) (Executor, error) {
	return NewWebSocketExecutorForProtocols(config, method, url, websocketProtocols...)
}

// NewWebSocketExecutorForProtocols offers only protocols in the upgrade.
func NewWebSocketExecutorForProtocols(config *restclient.Config, method, url string, protocols ...string) (Executor, error) {
	if config == nil {
		return nil, errors.New("remotecommand: WebSocket executor needs a rest config")
	}
	// Fail early on configuration errors, as the transport is rebuilt per session.
	if _, _, err := websocket.RoundTripperFor(config); err != nil {
		return nil, fmt.Errorf("error creating websocket transports: %w", err)
	}
	return &wsExecutor{
		config:    config,
		method:    method,
		url:       url,
		protocols: append([]string(nil), protocols...),
	}, nil
}

// Stream runs a session without a context.
//
// Deprecated: use StreamWithContext.
func (e *wsExecutor) Stream(options StreamOptions) error {
	return e.StreamWithContext(context.Background(), options)
}

// StreamWithContext dials the websocket, runs the session and closes the
// connection. Cancelling ctx closes the connection and returns ctx.Err().
func (e *wsExecutor) StreamWithContext(ctx context.Context, options StreamOptions) error {
	// A websocket RoundTripper holds one connection, so each session gets its own.
	rt, holder, err := websocket.RoundTripperFor(e.config)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, e.method, e.url, nil)
	if err != nil {
		return fmt.Errorf("error creating request: %w", err)
	}
	conn, err := websocket.Negotiate(rt, holder, req, e.protocols...)
	if err != nil {
		return err
	}
	defer conn.Close() //nolint:errcheck

	channels := newWSChannels(conn, conn.Subprotocol())
	done := make(chan struct{})
	defer close(done)
	go channels.ping(done)

	// Messages for channels nobody registered are dropped, so reading starts
	// only once the session has created all of its streams.
	result := runSession(channels, conn.Subprotocol(), options, func() { go channels.readLoop() })

	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
