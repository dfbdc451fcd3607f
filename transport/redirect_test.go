package transport

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/oauth2"
)

// landing records what reached a redirect's target.
type landing struct {
	mu      sync.Mutex
	headers http.Header
	body    string
}

func (l *landing) record(r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.headers, l.body = r.Header.Clone(), string(body)
}

func (l *landing) get() (http.Header, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.headers, l.body
}

// redirectingServer answers /start with a redirect of the given code to
// target()+"/landing" and records the request that lands on /landing.
func redirectingServer(code int, target func() string, l *landing, tls bool) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		http.Redirect(w, r, target()+"/landing", code)
	})
	mux.HandleFunc("/landing", func(w http.ResponseWriter, r *http.Request) { l.record(r) })
	if tls {
		return httptest.NewTLSServer(mux)
	}
	return httptest.NewServer(mux)
}

// credentialHeaders are the headers that carry who the client is.
var credentialHeaders = []string{"Authorization", ImpersonateUserHeader, ImpersonateGroupHeader, "X-Remote-User", "X-Remote-Group"}

// TestCredentialsStayWithTheirOrigin sends a POST through every kind of
// credential round tripper to a server that redirects it (301, 302, 307,
// 308) to the same origin, another host name, another port, or from https
// to http. Credentials arrive only at the same origin; elsewhere the
// redirect is followed without them, and a 307/308 body arrives without
// them. client-go's round trippers add the credentials on every hop.
func TestCredentialsStayWithTheirOrigin(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("file-token"), 0o600); err != nil {
		t.Fatal(err)
	}
	kinds := []struct {
		name string
		wrap func(t *testing.T, rt http.RoundTripper) http.RoundTripper
	}{
		{"basic", func(t *testing.T, rt http.RoundTripper) http.RoundTripper {
			return NewBasicAuthRoundTripper("user", "pass", rt)
		}},
		{"bearer", func(t *testing.T, rt http.RoundTripper) http.RoundTripper {
			return NewBearerAuthRoundTripper("static-token", rt)
		}},
		{"bearer token file", func(t *testing.T, rt http.RoundTripper) http.RoundTripper {
			wrapped, err := NewBearerAuthWithRefreshRoundTripper("", tokenFile, rt)
			if err != nil {
				t.Fatal(err)
			}
			return wrapped
		}},
		{"token source", func(t *testing.T, rt http.RoundTripper) http.RoundTripper {
			return TokenSourceWrapTransport(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "source-token"}))(rt)
		}},
		{"impersonation", func(t *testing.T, rt http.RoundTripper) http.RoundTripper {
			return NewImpersonatingRoundTripper(ImpersonationConfig{UserName: "jane", Groups: []string{"admins"}}, rt)
		}},
		{"auth proxy", func(t *testing.T, rt http.RoundTripper) http.RoundTripper {
			return NewAuthProxyRoundTripper("jane", "", []string{"admins"}, nil, rt)
		}},
	}
	targets := []struct {
		name      string
		originTLS bool
		// url returns the redirect target given the origin's URL and
		// another server's.
		url      func(origin, other string) string
		sameSite bool
	}{
		{"same origin", false, func(origin, _ string) string { return origin }, true},
		{"other host name", false, func(origin, _ string) string { return strings.Replace(origin, "127.0.0.1", "localhost", 1) }, false},
		{"other port", false, func(_, other string) string { return other }, false},
		{"https to http", true, func(_, other string) string { return other }, false},
	}
	for _, kind := range kinds {
		for _, target := range targets {
			for _, code := range []int{301, 302, 307, 308} {
				t.Run(kind.name+"/"+target.name+"/"+http.StatusText(code), func(t *testing.T) {
					var atOrigin, atOther landing
					other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { atOther.record(r) }))
					defer other.Close()
					var origin *httptest.Server
					origin = redirectingServer(code, func() string { return target.url(origin.URL, other.URL) }, &atOrigin, target.originTLS)
					defer origin.Close()

					base := http.DefaultTransport
					if target.originTLS {
						base = origin.Client().Transport
					}
					client := &http.Client{Transport: kind.wrap(t, base)}
					resp, err := client.Post(origin.URL+"/start", "text/plain", strings.NewReader("request-body"))
					if err != nil {
						t.Fatal(err)
					}
					resp.Body.Close()

					landed := &atOther
					if target.name == "same origin" || target.name == "other host name" {
						landed = &atOrigin
					}
					headers, body := landed.get()
					if headers == nil {
						t.Fatal("the redirect was not followed")
					}
					var sent []string
					for _, h := range credentialHeaders {
						if headers.Get(h) != "" {
							sent = append(sent, h)
						}
					}
					if target.sameSite && len(sent) == 0 {
						t.Errorf("no credentials after a redirect within the origin")
					}
					if !target.sameSite && len(sent) != 0 {
						t.Errorf("credentials %v sent to %s", sent, target.name)
					}
					if keepsBody := code == 307 || code == 308; keepsBody != (body == "request-body") {
						t.Errorf("landed body %q", body)
					}
				})
			}
		}
	}
}
