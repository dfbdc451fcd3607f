package transport

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/internal/redirect"
)

// ResettableTokenSource is a token source whose cached token can be dropped,
// for example after the server rejected it.
type ResettableTokenSource interface {
	oauth2.TokenSource
	// ResetTokenOlderThan drops the cached token if it was obtained before
	// the given time, so that the next Token call fetches a new one.
	ResetTokenOlderThan(time.Time)
}

// TokenSourceWrapTransport returns a wrapper that authenticates requests with
// bearer tokens from ts. Requests that already carry an Authorization header
// are passed through unchanged.
func TokenSourceWrapTransport(ts oauth2.TokenSource) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper {
		return newTokenSourceTransport(rt, ts, nil)
	}
}

// ResettableTokenSourceWrapTransport is like TokenSourceWrapTransport, and in
// addition resets ts when the server answers 401 Unauthorized, so that the
// next request uses a freshly obtained token.
func ResettableTokenSourceWrapTransport(ts ResettableTokenSource) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper {
		return newTokenSourceTransport(rt, ts, ts)
	}
}

// tokenFileRefreshPeriod is how long a token read from a file is used before
// the file is read again: half of the gap between the kubelet refreshing a
// projected service account token (at 80% of its default 10 minute lifetime)
// and the old token expiring.
const tokenFileRefreshPeriod = time.Minute

// tokenExpiryLeeway makes a cached file token count as expired this long
// before its nominal expiry.
const tokenExpiryLeeway = 10 * time.Second

// NewCachedFileTokenSource returns a resettable token source serving the
// (whitespace trimmed) content of the file at path, re-reading it about once
// a minute. When a re-read fails, the last good token keeps being served.
func NewCachedFileTokenSource(path string) *cachingTokenSource {
	return &cachingTokenSource{
		base:   &fileTokenSource{path: path, period: tokenFileRefreshPeriod},
		leeway: tokenExpiryLeeway,
		now:    time.Now,
	}
}

// NewCachedTokenSource returns a resettable token source that caches the
// tokens of ts until they expire.
func NewCachedTokenSource(ts oauth2.TokenSource) *cachingTokenSource {
	return &cachingTokenSource{base: ts, now: time.Now}
}

// tokenSourceTransport sets bearer tokens from an oauth2 transport and resets
// a resettable source when the server rejects a token.
type tokenSourceTransport struct {
	base       http.RoundTripper
	withToken  http.RoundTripper
	resettable ResettableTokenSource
}

var _ utilnet.RoundTripperWrapper = &tokenSourceTransport{}

func newTokenSourceTransport(rt http.RoundTripper, ts oauth2.TokenSource, resettable ResettableTokenSource) *tokenSourceTransport {
	return &tokenSourceTransport{
		base:       rt,
		withToken:  &oauth2.Transport{Source: ts, Base: rt},
		resettable: resettable,
	}
}

func (t *tokenSourceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// An explicit Authorization header (e.g. --token) wins over the source,
	// and a redirect hop to another server gets no token.
	if req.Header.Get("Authorization") != "" || redirect.LeftOrigin(req) {
		return t.base.RoundTrip(req)
	}
	// Only tokens obtained before this request started are reset on a 401:
	// a token fetched meanwhile by another request deserves its own try.
	start := time.Now()
	resp, err := t.withToken.RoundTrip(req)
	if err == nil && resp != nil && resp.StatusCode == http.StatusUnauthorized && t.resettable != nil {
		t.resettable.ResetTokenOlderThan(start)
	}
	return resp, err
}

func (t *tokenSourceTransport) CancelRequest(req *http.Request) {
	if req.Header.Get("Authorization") != "" || redirect.LeftOrigin(req) {
		cancelThrough(t.base, req)
		return
	}
	cancelThrough(t.withToken, req)
}

func (t *tokenSourceTransport) WrappedRoundTripper() http.RoundTripper { return t.base }

// fileTokenSource reads a token from a file on every call. The token is
// given an expiry period from now so that a cache re-reads it.
type fileTokenSource struct {
	path   string
	period time.Duration
}

var _ oauth2.TokenSource = &fileTokenSource{}

func (f *fileTokenSource) Token() (*oauth2.Token, error) {
	content, err := os.ReadFile(f.path)
	if err != nil {
		return nil, fmt.Errorf("failed to read token file %q: %w", f.path, err)
	}
	token := strings.TrimSpace(string(content))
	if token == "" {
		return nil, fmt.Errorf("read empty token from file %q", f.path)
	}
	return &oauth2.Token{AccessToken: token, Expiry: time.Now().Add(f.period)}, nil
}

// cachingTokenSource caches the token of base until leeway before its
// expiry. When base fails but a token is cached, the cached token is served.
type cachingTokenSource struct {
	base   oauth2.TokenSource
	leeway time.Duration

	// mu guards tok and obtained.
	mu       sync.RWMutex
	tok      *oauth2.Token
	obtained time.Time

	now func() time.Time // injectable for tests
}

var _ ResettableTokenSource = &cachingTokenSource{}

// usable reports whether tok may be served at now.
func (c *cachingTokenSource) usable(tok *oauth2.Token, now time.Time) bool {
	return tok != nil && tok.Expiry.Add(-c.leeway).After(now)
}

// Token returns the cached token, fetching a new one from the base source
// when there is none or it is about to expire.
func (c *cachingTokenSource) Token() (*oauth2.Token, error) {
	now := c.now()

	c.mu.RLock()
	tok := c.tok
	c.mu.RUnlock()
	if c.usable(tok, now) {
		return tok, nil
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.usable(c.tok, now) {
		return c.tok, nil
	}

	fresh, err := c.base.Token()
	if err != nil {
		if c.tok == nil {
			return nil, err
		}
		// There is no caller supplied logger to report through.
		klog.TODO().Error(err, "Unable to rotate token")
		return c.tok, nil
	}
	c.tok, c.obtained = fresh, c.now()
	return fresh, nil
}

// ResetTokenOlderThan drops the cached token if it was obtained before t.
func (c *cachingTokenSource) ResetTokenOlderThan(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.obtained.Before(t) {
		c.tok, c.obtained = nil, time.Time{}
	}
}
