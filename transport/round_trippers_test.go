package transport

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// headerRecorder is a test API server that remembers the headers of the last
// request it received.
type headerRecorder struct {
	mu     sync.Mutex
	header http.Header
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.header = r.Header.Clone()
	h.mu.Unlock()
	whoAmIHandler(w, r)
}

func (h *headerRecorder) last() http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.header
}

// sendThrough sends a GET with the given preset headers through rt to a
// fresh server and returns the headers the server received.
func sendThrough(t *testing.T, rt http.RoundTripper, preset http.Header) http.Header {
	t.Helper()
	rec := &headerRecorder{}
	srv := newPlainServer(t, rec)
	req := newGet(t, srv.URL+"/api/v1/pods")
	for k, vs := range preset {
		req.Header[k] = append([]string(nil), vs...)
	}
	before := req.Header.Clone()
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !reflect.DeepEqual(req.Header, before) {
		t.Errorf("round tripper modified the caller's request headers: %v -> %v", before, req.Header)
	}
	return rec.last()
}

func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

func TestAuthAndHeaderRoundTrippers(t *testing.T) {
	base := http.DefaultTransport
	tests := []struct {
		name   string
		rt     http.RoundTripper
		preset http.Header
		want   map[string][]string // header -> exact values; nil slice means absent
	}{
		{
			name: "bearer token",
			rt:   NewBearerAuthRoundTripper("secret-token", base),
			want: map[string][]string{"Authorization": {"Bearer secret-token"}},
		},
		{
			name:   "bearer token keeps explicit Authorization",
			rt:     NewBearerAuthRoundTripper("secret-token", base),
			preset: http.Header{"Authorization": {"Bearer mine"}},
			want:   map[string][]string{"Authorization": {"Bearer mine"}},
		},
		{
			name: "basic auth",
			rt:   NewBasicAuthRoundTripper("admin", "p@ss", base),
			want: map[string][]string{"Authorization": {basic("admin", "p@ss")}},
		},
		{
			name:   "basic auth keeps explicit Authorization",
			rt:     NewBasicAuthRoundTripper("admin", "p@ss", base),
			preset: http.Header{"Authorization": {"Bearer mine"}},
			want:   map[string][]string{"Authorization": {"Bearer mine"}},
		},
		{
			name: "user agent",
			rt:   NewUserAgentRoundTripper("kubectl/v1.37.2 (linux/amd64)", base),
			want: map[string][]string{"User-Agent": {"kubectl/v1.37.2 (linux/amd64)"}},
		},
		{
			name:   "user agent keeps explicit value",
			rt:     NewUserAgentRoundTripper("kubectl", base),
			preset: http.Header{"User-Agent": {"mine"}},
			want:   map[string][]string{"User-Agent": {"mine"}},
		},
		{
			name: "impersonation",
			rt: NewImpersonatingRoundTripper(ImpersonationConfig{
				UserName: "system:serviceaccount:default:builder",
				UID:      "1234-abcd",
				Groups:   []string{"system:serviceaccounts", "system:authenticated"},
				Extra: map[string][]string{
					"scopes":                       {"view", "edit"},
					"example.org/project":          {"alpha"},
					"100%":                         {"percent"},
					"with space":                   {"s"},
					"authentication.kubernetes.io": {"x"},
				},
			}, base),
			want: map[string][]string{
				"Impersonate-User":                               {"system:serviceaccount:default:builder"},
				"Impersonate-Uid":                                {"1234-abcd"},
				"Impersonate-Group":                              {"system:serviceaccounts", "system:authenticated"},
				"Impersonate-Extra-Scopes":                       {"view", "edit"},
				"Impersonate-Extra-Example.org%2fproject":        {"alpha"},
				"Impersonate-Extra-100%25":                       {"percent"},
				"Impersonate-Extra-With%20space":                 {"s"},
				"Impersonate-Extra-Authentication.kubernetes.io": {"x"},
			},
		},
		{
			name: "impersonation without uid",
			rt:   NewImpersonatingRoundTripper(ImpersonationConfig{UserName: "bob"}, base),
			want: map[string][]string{"Impersonate-User": {"bob"}, "Impersonate-Uid": nil, "Impersonate-Group": nil},
		},
		{
			name:   "impersonation left alone when the request impersonates",
			rt:     NewImpersonatingRoundTripper(ImpersonationConfig{UserName: "bob", Groups: []string{"g"}}, base),
			preset: http.Header{"Impersonate-User": {"carol"}},
			want:   map[string][]string{"Impersonate-User": {"carol"}, "Impersonate-Group": nil},
		},
		{
			name: "auth proxy replaces identity headers",
			rt: NewAuthProxyRoundTripper("alice", "uid-1", []string{"devs", "ops"},
				map[string][]string{"scopes": {"a", "b"}, "acme.com/team": {"x"}}, base),
			preset: http.Header{
				"X-Remote-User":         {"mallory"},
				"X-Remote-Uid":          {"evil"},
				"X-Remote-Group":        {"system:masters"},
				"X-Remote-Extra-Forged": {"1"},
			},
			want: map[string][]string{
				"X-Remote-User":                  {"alice"},
				"X-Remote-Uid":                   {"uid-1"},
				"X-Remote-Group":                 {"devs", "ops"},
				"X-Remote-Extra-Scopes":          {"a", "b"},
				"X-Remote-Extra-Acme.com%2fteam": {"x"},
				"X-Remote-Extra-Forged":          nil,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sendThrough(t, tt.rt, tt.preset)
			for name, want := range tt.want {
				if g := got.Values(name); !reflect.DeepEqual(g, want) && !(len(g) == 0 && want == nil) {
					t.Errorf("server got %s = %q, want %q", name, g, want)
				}
			}
		})
	}
}

func TestImpersonationExtraRoundTripsThroughPathUnescape(t *testing.T) {
	// The API server decodes extra keys with url.PathUnescape after
	// lowercasing the header name; every key must come back unchanged.
	keys := []string{"scopes", "example.org/project", "100%", "with space", "utf8-ключ", "a:b", "tab\tkey", "~!#$&'*+-.^_`|"}
	for _, key := range keys {
		escaped := headerKeyEscape(key)
		for i := 0; i < len(escaped); i++ {
			if c := escaped[i]; c != '%' && !isHeaderTokenByte(c) {
				t.Errorf("escaped key %q has illegal header byte %q", escaped, c)
			}
		}
		back, err := url.PathUnescape(escaped)
		if err != nil || back != key {
			t.Errorf("PathUnescape(%q) = %q, %v; want %q", escaped, back, err, key)
		}
	}
	if got := headerKeyEscape("a/b%"); got != "a%2Fb%25" {
		t.Errorf("headerKeyEscape = %q, want uppercase hex a%%2Fb%%25", got)
	}
}

func TestSetAuthProxyHeaders(t *testing.T) {
	req := newGet(t, "http://example.invalid/")
	req.Header.Set("X-Remote-User", "old")
	req.Header.Set("X-Remote-Extra-Old", "1")
	req.Header["x-remote-extra-lowercase"] = []string{"2"} // non-canonical key
	SetAuthProxyHeaders(req, "alice", "", nil, nil)
	if got := req.Header.Get("X-Remote-User"); got != "alice" {
		t.Errorf("X-Remote-User = %q", got)
	}
	for name := range req.Header {
		if strings.HasPrefix(strings.ToLower(name), "x-remote-extra-") || strings.EqualFold(name, "X-Remote-Uid") {
			t.Errorf("stale header %s kept", name)
		}
	}
}

func TestHTTPWrappersForConfigOrder(t *testing.T) {
	// WrapTransport must see the requests after the outer decorators ran,
	// and the impersonation layer is outermost.
	var seenByWrapper http.Header
	base := &recordingRoundTripper{}
	cfg := &Config{
		UserAgent:   "agent/1",
		BearerToken: "tok",
		Impersonate: ImpersonationConfig{UserName: "bob"},
	}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			seenByWrapper = req.Header.Clone()
			return rt.RoundTrip(req)
		})
	})
	rt, err := HTTPWrappersForConfig(cfg, base)
	if err != nil {
		t.Fatal(err)
	}
	if ir, ok := rt.(*identityRoundTripper); !ok || ir.headers != impersonationHeaders {
		t.Errorf("outermost round tripper is %T, want the impersonating one", rt)
	}
	resp, err := rt.RoundTrip(newGet(t, "http://example.invalid/api"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for name, want := range map[string]string{"Authorization": "Bearer tok", "User-Agent": "agent/1", "Impersonate-User": "bob"} {
		if got := seenByWrapper.Get(name); got != want {
			t.Errorf("wrapper saw %s = %q, want %q", name, got, want)
		}
	}

	// Basic auth.
	rt, err = HTTPWrappersForConfig(&Config{Username: "u", Password: "p"}, base)
	if err != nil {
		t.Fatal(err)
	}
	resp, err = rt.RoundTrip(newGet(t, "http://example.invalid/api"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := base.last(t).Header.Get("Authorization"); got != basic("u", "p") {
		t.Errorf("Authorization = %q", got)
	}

	// Nothing configured: the base comes back as is.
	rt, err = HTTPWrappersForConfig(&Config{}, base)
	if err != nil || rt != base {
		t.Errorf("empty config: got %T, %v; want the base round tripper", rt, err)
	}
}

func TestNewAppliesHeadersEndToEnd(t *testing.T) {
	ca := newTestCA(t, "ca")
	rec := &headerRecorder{}
	srv := newTLSAPIServer(t, ca, nil, rec)
	rt, err := New(&Config{
		TLS:         TLSConfig{CAData: ca.certPEM},
		BearerToken: "abc",
		UserAgent:   "e2e/1",
		Impersonate: ImpersonationConfig{UserName: "jane", Groups: []string{"g1"}, Extra: map[string][]string{"reason": {"debugging"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := whoAmI(t, rt, srv.URL); err != nil {
		t.Fatal(err)
	}
	got := rec.last()
	for name, want := range map[string]string{
		"Authorization":            "Bearer abc",
		"User-Agent":               "e2e/1",
		"Impersonate-User":         "jane",
		"Impersonate-Group":        "g1",
		"Impersonate-Extra-Reason": "debugging",
	} {
		if g := got.Get(name); g != want {
			t.Errorf("%s = %q, want %q", name, g, want)
		}
	}
}

func TestCancelRequestReachesCanceler(t *testing.T) {
	c := &cancelRecorder{}
	chain := NewUserAgentRoundTripper("a", NewBearerAuthRoundTripper("b", NewBasicAuthRoundTripper("u", "p",
		NewImpersonatingRoundTripper(ImpersonationConfig{UserName: "x"}, NewDebuggingRoundTripper(
			NewAuthProxyRoundTripper("u", "", nil, nil, c))))))
	req := newGet(t, "http://example.invalid/")
	chain.(requestCanceler).CancelRequest(req)
	if c.canceled != req {
		t.Error("CancelRequest did not reach the bottom round tripper")
	}
}

type cancelRecorder struct {
	recordingRoundTripper
	canceled *http.Request
}

func (c *cancelRecorder) CancelRequest(req *http.Request) { c.canceled = req }

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
