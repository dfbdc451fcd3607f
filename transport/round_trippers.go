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
	for _, wrap := range layersFor(config) {
		var err error
		if rt, err = wrap(rt); err != nil {
			return nil, err
		}
	}
	return rt, nil
}

// layer decorates a round tripper, or fails to.
type layer func(http.RoundTripper) (http.RoundTripper, error)

// infallible turns a WrapperFunc (nil: none) into a layer.
func infallible(wrap WrapperFunc) layer {
	return func(rt http.RoundTripper) (http.RoundTripper, error) {
		if wrap == nil {
			return rt, nil
		}
		return wrap(rt), nil
	}
}

// layersFor lists the decorators config asks for, innermost first.
func layersFor(config *Config) []layer {
	layers := []layer{infallible(config.WrapTransport), infallible(DebugWrappers), authLayer(config)}
	if agent := config.UserAgent; agent != "" {
		layers = append(layers, infallible(func(rt http.RoundTripper) http.RoundTripper { return NewUserAgentRoundTripper(agent, rt) }))
	}
	if imp := config.Impersonate; imp.UserName != "" || imp.UID != "" || len(imp.Groups) > 0 || len(imp.Extra) > 0 {
		layers = append(layers, infallible(func(rt http.RoundTripper) http.RoundTripper { return NewImpersonatingRoundTripper(imp, rt) }))
	}
	return layers
}

// authLayer is the layer of the one credential config may carry.
func authLayer(config *Config) layer {
	basic, token := config.HasBasicAuth(), config.HasTokenAuth()
	return func(rt http.RoundTripper) (http.RoundTripper, error) {
		switch {
		case basic && token:
			return nil, errors.New("username/password or bearer token may be set, but not both")
		case token:
			return NewBearerAuthWithRefreshRoundTripper(config.BearerToken, config.BearerTokenFile, rt)
		case basic:
			return NewBasicAuthRoundTripper(config.Username, config.Password, rt), nil
		}
		return rt, nil
	}
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

// identityHeaders names the headers that state who a request acts as:
// the impersonation headers for the API server, or the X-Remote-* headers
// an authenticating proxy sends to its backend.
type identityHeaders struct {
	user, uid, group, extraPrefix string
}

var (
	impersonationHeaders = identityHeaders{ImpersonateUserHeader, ImpersonateUIDHeader, ImpersonateGroupHeader, ImpersonateUserExtraHeaderPrefix}
	authProxyHeaders     = identityHeaders{remoteUserHeader, remoteUIDHeader, remoteGroupHeader, remoteExtraHeaderPrefix}
)

// write sets the headers for identity in h. Groups and extra values are
// added to values already there; extra keys are escaped for header names.
func (n identityHeaders) write(h http.Header, identity ImpersonationConfig) {
	h.Set(n.user, identity.UserName)
	if identity.UID != "" {
		h.Set(n.uid, identity.UID)
	}
	for _, group := range identity.Groups {
		h.Add(n.group, group)
	}
	for key, values := range identity.Extra {
		name := n.extraPrefix + headerKeyEscape(key)
		for _, value := range values {
			h.Add(name, value)
		}
	}
}

// clear removes every header of the set from h.
func (n identityHeaders) clear(h http.Header) {
	h.Del(n.user)
	h.Del(n.uid)
	h.Del(n.group)
	for name := range h {
		if len(name) >= len(n.extraPrefix) && strings.EqualFold(name[:len(n.extraPrefix)], n.extraPrefix) {
			delete(h, name)
		}
	}
}

// identityRoundTripper states an identity in the headers of each request
// that goes to the origin it started at: impersonation headers unless the
// caller impersonates already, or the auth-proxy headers, replacing any
// the caller set.
type identityRoundTripper struct {
	headers  identityHeaders
	identity ImpersonationConfig
	// replace: the caller's own headers of the set are replaced; otherwise
	// a request whose user header is set is left alone.
	replace bool
	next    http.RoundTripper
}

var _ utilnet.RoundTripperWrapper = &identityRoundTripper{}

// NewImpersonatingRoundTripper returns a round tripper that makes requests
// act as the identity in impersonate. A request that already has an
// Impersonate-User header is sent unchanged.
func NewImpersonatingRoundTripper(impersonate ImpersonationConfig, delegate http.RoundTripper) http.RoundTripper {
	return &identityRoundTripper{headers: impersonationHeaders, identity: impersonate, next: delegate}
}

// NewAuthProxyRoundTripper returns a round tripper for an authenticating
// proxy that forwards requests on behalf of an already authenticated user:
// it replaces the X-Remote-User, X-Remote-Uid, X-Remote-Group and
// X-Remote-Extra-* headers of each request with username, uid, groups and
// extra (the name, UID, groups and extra of the user.Info). Keys of extra
// should be lowercase to survive a round trip through impersonation.
func NewAuthProxyRoundTripper(username, uid string, groups []string, extra map[string][]string, rt http.RoundTripper) http.RoundTripper {
	identity := ImpersonationConfig{UserName: username, UID: uid, Groups: groups, Extra: extra}
	return &identityRoundTripper{headers: authProxyHeaders, identity: identity, replace: true, next: rt}
}

func (t *identityRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	// A redirect hop to another server gets no identity; a caller that
	// impersonates itself keeps its own.
	if redirect.LeftOrigin(req) || (!t.replace && req.Header.Get(t.headers.user) != "") {
		return t.next.RoundTrip(req)
	}
	req = utilnet.CloneRequest(req)
	if t.replace {
		t.headers.clear(req.Header)
	}
	t.headers.write(req.Header, t.identity)
	return t.next.RoundTrip(req)
}

func (t *identityRoundTripper) CancelRequest(req *http.Request) { cancelThrough(t.next, req) }

func (t *identityRoundTripper) WrappedRoundTripper() http.RoundTripper { return t.next }

const (
	remoteUserHeader        = "X-Remote-User"
	remoteUIDHeader         = "X-Remote-Uid"
	remoteGroupHeader       = "X-Remote-Group"
	remoteExtraHeaderPrefix = "X-Remote-Extra-"
)

// SetAuthProxyHeaders removes any X-Remote-* identity headers from req and
// sets them from username, uid, groups and extra. It modifies req.
func SetAuthProxyHeaders(req *http.Request, username, uid string, groups []string, extra map[string][]string) {
	authProxyHeaders.clear(req.Header)
	authProxyHeaders.write(req.Header, ImpersonationConfig{UserName: username, UID: uid, Groups: groups, Extra: extra})
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
