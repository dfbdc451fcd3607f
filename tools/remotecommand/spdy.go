package remotecommand

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	remotecommandconsts "k8s.io/apimachinery/pkg/util/remotecommand"

	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/transport/spdy"
)

// spdyProtocols are offered in order of preference.
var spdyProtocols = []string{
	remotecommandconsts.StreamProtocolV5Name,
	remotecommandconsts.StreamProtocolV4Name,
	remotecommandconsts.StreamProtocolV3Name,
	remotecommandconsts.StreamProtocolV2Name,
	remotecommandconsts.StreamProtocolV1Name,
}

// spdyExecutor runs sessions over SPDY upgrades of method requests to url.
type spdyExecutor struct {
	transport       http.RoundTripper
	upgrader        spdy.Upgrader
	method          string
	url             *url.URL
	protocols       []string
	rejectRedirects bool
}

// NewSPDYExecutor returns an Executor that upgrades requests to url to SPDY
// using config's TLS, proxy and credentials.
func NewSPDYExecutor(config *restclient.Config, method string, url *url.URL) (Executor, error) {
	transport, upgrader, err := spdy.RoundTripperFor(config)
	if err != nil {
		return nil, err
	}
	return NewSPDYExecutorForTransports(transport, upgrader, method, url)
}

// NewSPDYExecutorForTransports is NewSPDYExecutor with a caller-provided
// round tripper and upgrader.
func NewSPDYExecutorForTransports(transport http.RoundTripper, upgrader spdy.Upgrader, method string, url *url.URL) (Executor, error) {
	return NewSPDYExecutorForProtocols(transport, upgrader, method, url, spdyProtocols...)
}

// NewSPDYExecutorRejectRedirects is NewSPDYExecutorForTransports, except that
// a redirect answered to the upgrade request fails the session.
func NewSPDYExecutorRejectRedirects(transport http.RoundTripper, upgrader spdy.Upgrader, method string, url *url.URL) (Executor, error) {
	e, err := NewSPDYExecutorForTransports(transport, upgrader, method, url)
	if err != nil {
		return nil, err
	}
	e.(*spdyExecutor).rejectRedirects = true
	return e, nil
}

// NewSPDYExecutorForProtocols offers only protocols in the upgrade request.
func NewSPDYExecutorForProtocols(transport http.RoundTripper, upgrader spdy.Upgrader, method string, url *url.URL, protocols ...string) (Executor, error) {
	if transport == nil || upgrader == nil {
		return nil, errors.New("remotecommand: SPDY executor needs a transport and an upgrader")
	}
	if url == nil {
		return nil, errors.New("remotecommand: SPDY executor needs a URL")
	}
	return &spdyExecutor{
		transport: transport,
		upgrader:  upgrader,
		method:    method,
		url:       url,
		protocols: append([]string(nil), protocols...),
	}, nil
}

// Stream runs a session without a context.
//
// Deprecated: use StreamWithContext.
func (e *spdyExecutor) Stream(options StreamOptions) error {
	return e.StreamWithContext(context.Background(), options)
}

// StreamWithContext upgrades a new connection, runs the session on it and
// closes it. Cancelling ctx closes the connection and returns ctx.Err().
func (e *spdyExecutor) StreamWithContext(ctx context.Context, options StreamOptions) error {
	req, err := http.NewRequestWithContext(ctx, e.method, e.url.String(), nil)
	if err != nil {
		return fmt.Errorf("error creating request: %w", err)
	}
	client := &http.Client{Transport: e.transport}
	if e.rejectRedirects {
		client.CheckRedirect = func(*http.Request, []*http.Request) error {
			return errors.New("redirects are not allowed for SPDY upgrades")
		}
	}
	conn, protocol, err := spdy.Negotiate(e.upgrader, client, req, e.protocols...)
	if err != nil {
		return err
	}
	defer conn.Close() //nolint:errcheck

	select {
	case err := <-runSession(conn, protocol, options, nil):
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
