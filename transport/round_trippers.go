package transport

import (
	"errors"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
	utilnet "k8s.io/apimachinery/pkg/util/net"

	"github.com/kubeclient/client-go/internal/redirect"
)

// HTTPWrappersForConfig layers the request decorators described by config on
// top of rt, innermost first: config.WrapTransport, debug logging (when
// verbosity allows), bearer token or basic authentication, the User-Agent
// header and impersonation headers.
//
// It is exported for clients that speak HTTP but then take over the
// connection (WebSocket, SPDY, HTTP/2 streams); plain HTTP clients should use
// New, which also sets up TLS.
func HTTPWrappersForConfig(config *Config, rt http.RoundTripper) (http.RoundTripper, error) {
	if config.WrapTransport != nil {
		rt = config.WrapTransport(rt)
	}
	rt = DebugWrappers(rt)

	switch {
	case config.HasBasicAuth() && config.HasTokenAuth():
		return nil, errors.New("username/password or bearer token may be set, but not both")
	case config.HasTokenAuth():
		var err error
		if rt, err = NewBearerAuthWithRefreshRoundTripper(config.BearerToken, config.BearerTokenFile, rt); err != nil {
			return nil, err
		}
	case config.HasBasicAuth():
		rt = NewBasicAuthRoundTripper(config.Username, config.Password, rt)
	}

	if config.UserAgent != "" {
		rt = NewUserAgentRoundTripper(config.UserAgent, rt)
	}
	if imp := config.Impersonate; imp.UserName != "" || imp.UID != "" || len(imp.Groups) > 0 || len(imp.Extra) > 0 {
		rt = NewImpersonatingRoundTripper(imp, rt)
	}
	return rt, nil
}

// userAgentRoundTripper sets the User-Agent header when it is missing.
type userAgentRoundTripper struct {
	agent string
	rt    http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &userAgentRoundTripper{}

// NewUserAgentRoundTripper returns a round tripper that sends agent as the
// User-Agent of requests that do not set one.
func NewUserAgentRoundTripper(agent string, rt http.RoundTripper) http.RoundTripper {
	return &userAgentRoundTripper{agent: agent, rt: rt}
}

func (u *userAgentRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") == "" {
		req = utilnet.CloneRequest(req)
		req.Header.Set("User-Agent", u.agent)
	}
	return u.rt.RoundTrip(req)
}

func (u *userAgentRoundTripper) CancelRequest(req *http.Request) { cancelThrough(u.rt, req) }

func (u *userAgentRoundTripper) WrappedRoundTripper() http.RoundTripper { return u.rt }

// basicAuthRoundTripper adds basic credentials when no Authorization header
// is present.
type basicAuthRoundTripper struct {
	username string
	password string `datapolicy:"password"`
	rt       http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &basicAuthRoundTripper{}

// NewBasicAuthRoundTripper returns a round tripper that authenticates
// requests with HTTP basic authentication, leaving requests that already
// carry an Authorization header alone.
func NewBasicAuthRoundTripper(username, password string, rt http.RoundTripper) http.RoundTripper {
	return &basicAuthRoundTripper{username: username, password: password, rt: rt}
}

func (b *basicAuthRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") == "" && !redirect.LeftOrigin(req) {
		req = utilnet.CloneRequest(req)
		req.SetBasicAuth(b.username, b.password)
	}
	return b.rt.RoundTrip(req)
}

func (b *basicAuthRoundTripper) CancelRequest(req *http.Request) { cancelThrough(b.rt, req) }

func (b *basicAuthRoundTripper) WrappedRoundTripper() http.RoundTripper { return b.rt }

// Header names understood by the API server's impersonation filter (see
// k8s.io/api/authentication/v1). Their values are part of the wire protocol.
const (
	// ImpersonateUserHeader names the user to act as.
	ImpersonateUserHeader = "Impersonate-User"

	// ImpersonateUIDHeader names the UID to act as.
	ImpersonateUIDHeader = "Impersonate-Uid"

	// ImpersonateGroupHeader names a group to act as; repeat it for several
	// groups.
	ImpersonateGroupHeader = "Impersonate-Group"

	// ImpersonateUserExtraHeaderPrefix starts the headers that carry the
	// extra attributes of the impersonated user: the rest of the header name
	// is the (percent-encoded) key, and repeating a header appends values,
	// so "Impersonate-Extra-Scopes: a" and "Impersonate-Extra-Scopes: b"
	// give extra["scopes"] = ["a", "b"].
	ImpersonateUserExtraHeaderPrefix = "Impersonate-Extra-"
)

// impersonatingRoundTripper adds impersonation headers to requests that do
// not impersonate already.
type impersonatingRoundTripper struct {
	impersonate ImpersonationConfig
	delegate    http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &impersonatingRoundTripper{}

// NewImpersonatingRoundTripper returns a round tripper that makes requests
// act as the identity in impersonate. A request that already has an
// Impersonate-User header is sent unchanged.
func NewImpersonatingRoundTripper(impersonate ImpersonationConfig, delegate http.RoundTripper) http.RoundTripper {
	return &impersonatingRoundTripper{impersonate: impersonate, delegate: delegate}
}

func (i *impersonatingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	// Impersonate-User marks a request the caller impersonates itself. A
	// redirect hop to another server gets no identity to act as.
	if req.Header.Get(ImpersonateUserHeader) != "" || redirect.LeftOrigin(req) {
		return i.delegate.RoundTrip(req)
	}
	req = utilnet.CloneRequest(req)
	req.Header.Set(ImpersonateUserHeader, i.impersonate.UserName)
	if i.impersonate.UID != "" {
		req.Header.Set(ImpersonateUIDHeader, i.impersonate.UID)
	}
	for _, group := range i.impersonate.Groups {
		req.Header.Add(ImpersonateGroupHeader, group)
	}
	for key, values := range i.impersonate.Extra {
		name := ImpersonateUserExtraHeaderPrefix + headerKeyEscape(key)
		for _, value := range values {
			req.Header.Add(name, value)
		}
	}
	return i.delegate.RoundTrip(req)
}

func (i *impersonatingRoundTripper) CancelRequest(req *http.Request) { cancelThrough(i.delegate, req) }

func (i *impersonatingRoundTripper) WrappedRoundTripper() http.RoundTripper { return i.delegate }

// authProxyRoundTripper sets the X-Remote-* headers of an authenticating
// front proxy on every request.
type authProxyRoundTripper struct {
	username string
	uid      string
	groups   []string
	extra    map[string][]string

	rt http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &authProxyRoundTripper{}

// NewAuthProxyRoundTripper returns a round tripper for an authenticating
// proxy that forwards requests on behalf of an already authenticated user:
// it replaces the X-Remote-User, X-Remote-Uid, X-Remote-Group and
// X-Remote-Extra-* headers of each request with username, uid, groups and
// extra (the name, UID, groups and extra of the user.Info). Keys of extra
// should be lowercase to survive a round trip through impersonation.
func NewAuthProxyRoundTripper(username, uid string, groups []string, extra map[string][]string, rt http.RoundTripper) http.RoundTripper {
	return &authProxyRoundTripper{username: username, uid: uid, groups: groups, extra: extra, rt: rt}
}

func (a *authProxyRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if redirect.LeftOrigin(req) {
		// The identity is asserted to the proxy's backend only.
		return a.rt.RoundTrip(req)
	}
	req = utilnet.CloneRequest(req)
	SetAuthProxyHeaders(req, a.username, a.uid, a.groups, a.extra)
	return a.rt.RoundTrip(req)
}

func (a *authProxyRoundTripper) CancelRequest(req *http.Request) { cancelThrough(a.rt, req) }

func (a *authProxyRoundTripper) WrappedRoundTripper() http.RoundTripper { return a.rt }

const (
	remoteUserHeader        = "X-Remote-User"
	remoteUIDHeader         = "X-Remote-Uid"
	remoteGroupHeader       = "X-Remote-Group"
	remoteExtraHeaderPrefix = "X-Remote-Extra-"
)

// SetAuthProxyHeaders removes any X-Remote-* identity headers from req and
// sets them from username, uid, groups and extra. It modifies req.
func SetAuthProxyHeaders(req *http.Request, username, uid string, groups []string, extra map[string][]string) {
	req.Header.Del(remoteUserHeader)
	req.Header.Del(remoteUIDHeader)
	req.Header.Del(remoteGroupHeader)
	for name := range req.Header {
		if len(name) >= len(remoteExtraHeaderPrefix) && strings.EqualFold(name[:len(remoteExtraHeaderPrefix)], remoteExtraHeaderPrefix) {
			delete(req.Header, name)
		}
	}

	req.Header.Set(remoteUserHeader, username)
	if uid != "" {
		req.Header.Set(remoteUIDHeader, uid)
	}
	for _, group := range groups {
		req.Header.Add(remoteGroupHeader, group)
	}
	for key, values := range extra {
		name := remoteExtraHeaderPrefix + headerKeyEscape(key)
		for _, value := range values {
			req.Header.Add(name, value)
		}
	}
}

// bearerAuthRoundTripper adds a bearer token when no Authorization header is
// present. With a source, the token is taken from it and bearer is the
// fallback when the source fails.
type bearerAuthRoundTripper struct {
	bearer string
	source oauth2.TokenSource
	rt     http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &bearerAuthRoundTripper{}

// NewBearerAuthRoundTripper returns a round tripper that sends bearer as a
// bearer token on requests without an Authorization header.
func NewBearerAuthRoundTripper(bearer string, rt http.RoundTripper) http.RoundTripper {
	return &bearerAuthRoundTripper{bearer: bearer, rt: rt}
}

// NewBearerAuthWithRefreshRoundTripper is like NewBearerAuthRoundTripper, but
// when tokenFile is set the token is read from that file, re-read
// periodically, and the last successfully read token is used. If bearer is
// empty the file is read right away, and failing to read it is an error.
func NewBearerAuthWithRefreshRoundTripper(bearer string, tokenFile string, rt http.RoundTripper) (http.RoundTripper, error) {
	if tokenFile == "" {
		return &bearerAuthRoundTripper{bearer: bearer, rt: rt}, nil
	}
	source := NewCachedFileTokenSource(tokenFile)
	if bearer == "" {
		token, err := source.Token()
		if err != nil {
			return nil, err
		}
		bearer = token.AccessToken
	}
	return &bearerAuthRoundTripper{bearer: bearer, source: source, rt: rt}, nil
}

func (b *bearerAuthRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" || redirect.LeftOrigin(req) {
		return b.rt.RoundTrip(req)
	}
	token := b.bearer
	if b.source != nil {
		// On failure keep using the last known token.
		if fresh, err := b.source.Token(); err == nil {
			token = fresh.AccessToken
		}
	}
	req = utilnet.CloneRequest(req)
	req.Header.Set("Authorization", "Bearer "+token)
	return b.rt.RoundTrip(req)
}

func (b *bearerAuthRoundTripper) CancelRequest(req *http.Request) { cancelThrough(b.rt, req) }

func (b *bearerAuthRoundTripper) WrappedRoundTripper() http.RoundTripper { return b.rt }
