package exec

import (
	"errors"
	"fmt"
	"net/http"

	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/redirect"
	"github.com/kubeclient/client-go/transport"
	"github.com/kubeclient/client-go/util/connrotation"
)

// UpdateTransportConfig makes c authenticate with the plugin's credentials:
// bearer tokens through a wrapping RoundTripper, client certificates through
// the TLS certificate callback, and a dialer whose connections are closed
// when the certificate changes. A config that already carries a token,
// basic-auth credentials or a client certificate is left unchanged.
func (a *Authenticator) UpdateTransportConfig(c *transport.Config) error {
	if c.HasTokenAuth() || c.HasBasicAuth() || c.HasCertAuth() {
		return nil
	}

	c.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return &roundTripper{a: a, base: rt}
	})

	if c.HasCertCallback() {
		return errors.New("can't add TLS certificate callback: transport.Config.TLS.GetCert already set")
	}
	c.TLS.GetCertHolder = a.getCert

	if c.DialHolder == nil {
		c.DialHolder = a.dial
		return nil
	}
	if c.DialHolder.Dial == nil {
		return errors.New("invalid transport.Config.DialHolder: wrapped Dial function is nil")
	}
	tracked := connrotation.NewDialerWithTracker(c.DialHolder.Dial, a.connTracker)
	c.DialHolder = &transport.DialHolder{Dial: tracked.DialContext}
	return nil
}

// roundTripper adds the plugin's bearer token to requests that have no
// Authorization header and asks for new credentials after a 401.
type roundTripper struct {
	a    *Authenticator
	base http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &roundTripper{}

// WrappedRoundTripper returns the RoundTripper this one delegates to.
func (r *roundTripper) WrappedRoundTripper() http.RoundTripper { return r.base }

// RoundTrip implements http.RoundTripper.
func (r *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	// Someone else already chose how to authenticate this request, or it
	// is a redirect hop to another server, which gets no credentials (and
	// whose 401 says nothing about them).
	if req.Header.Get("Authorization") != "" || redirect.LeftOrigin(req) {
		return r.base.RoundTrip(req)
	}

	creds, err := r.a.getCreds(req.Context())
	if err != nil {
		return nil, fmt.Errorf("getting credentials: %w", err)
	}
	if creds.token != "" {
		req = utilnet.CloneRequest(req)
		req.Header.Set("Authorization", "Bearer "+creds.token)
	}

	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized {
		// The response is returned as is; the next request uses whatever
		// the plugin returns now.
		if err := r.a.refreshAfterRejection(req.Context(), creds); err != nil {
			klog.Errorf("refreshing credentials: %v", err)
		}
	}
	return resp, nil
}
