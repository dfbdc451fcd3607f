package oidc

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

var testNow = time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)

// jwt builds an unsigned token whose payload carries the given claims.
func jwt(t *testing.T, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc(payload) + ".c2lnbmF0dXJl"
}

func tokenExpiringAt(t *testing.T, exp time.Time) string {
	return jwt(t, map[string]any{"iss": "https://issuer", "sub": "alice", "exp": exp.Unix()})
}

// fakeIssuer is an OpenID provider: discovery document plus a token
// endpoint that accepts one refresh token and rotates it.
type fakeIssuer struct {
	*httptest.Server
	t *testing.T

	mu               sync.Mutex
	acceptedRefresh  string
	nextRefresh      string
	idToken          string // returned as id_token; empty: omitted
	discoveryStatus  int
	discoveryHits    int
	tokenHits        int
	lastClientSecret string
}

func newFakeIssuer(t *testing.T, useTLS bool) *fakeIssuer {
	f := &fakeIssuer{t: t, discoveryStatus: http.StatusOK}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.discoveryHits++
		if f.discoveryStatus != http.StatusOK {
			http.Error(w, "no metadata here", f.discoveryStatus)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer":                 f.URL,
			"authorization_endpoint": f.URL + "/auth",
			"token_endpoint":         f.URL + "/token",
			"jwks_uri":               f.URL + "/keys",
		})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.tokenHits++
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, secret, _ := r.BasicAuth()
		if secret == "" {
			secret = r.PostForm.Get("client_secret")
		}
		f.lastClientSecret = secret
		w.Header().Set("Content-Type", "application/json")
		if r.PostForm.Get("grant_type") != "refresh_token" || r.PostForm.Get("refresh_token") != f.acceptedRefresh {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"invalid_grant","error_description":"refresh token is not valid"}`)
			return
		}
		resp := map[string]any{"access_token": "opaque-access", "token_type": "Bearer", "expires_in": 3600}
		if f.nextRefresh != "" {
			resp["refresh_token"] = f.nextRefresh
		}
		if f.idToken != "" {
			resp["id_token"] = f.idToken
		}
		json.NewEncoder(w).Encode(resp)
	})
	if useTLS {
		f.Server = httptest.NewTLSServer(mux)
	} else {
		f.Server = httptest.NewServer(mux)
	}
	t.Cleanup(f.Close)
	return f
}

// recordingPersister keeps every persisted config.
type recordingPersister struct {
	mu    sync.Mutex
	saved []map[string]string
	err   error
}

func (p *recordingPersister) Persist(cfg map[string]string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	p.saved = append(p.saved, maps.Clone(cfg))
	return nil
}

// newProvider builds a provider under a cluster address unique to the
// test, so the shared provider cache does not leak between tests.
func newProvider(t *testing.T, cfg map[string]string, persister restclient.AuthProviderConfigPersister) *oidcAuthProvider {
	t.Helper()
	ap, err := newOIDCAuthProvider("https://"+strings.ReplaceAll(t.Name(), "/", "-")+".cluster", cfg, persister)
	if err != nil {
		t.Fatalf("newOIDCAuthProvider: %v", err)
	}
	p := ap.(*oidcAuthProvider)
	p.now = func() time.Time { return testNow }
	return p
}

// apiServer records the bearer token of every request.
func apiServer(t *testing.T) (*httptest.Server, func() []string) {
	var (
		mu   sync.Mutex
		seen []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func get(t *testing.T, rt http.RoundTripper, url string, header map[string]string) error {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil
}

func TestValidIDTokenIsUsedAsIs(t *testing.T) {
	issuer := newFakeIssuer(t, false)
	valid := tokenExpiringAt(t, testNow.Add(time.Hour))
	persister := &recordingPersister{}
	p := newProvider(t, map[string]string{
		cfgIssuerURL: issuer.URL, cfgClientID: "kubectl", cfgIDToken: valid, cfgRefreshToken: "rt-1",
	}, persister)
	srv, seen := apiServer(t)
	rt := p.WrapTransport(http.DefaultTransport)
	for i := 0; i < 2; i++ {
		if err := get(t, rt, srv.URL, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := seen(); len(got) != 2 || got[0] != "Bearer "+valid || got[1] != "Bearer "+valid {
		t.Errorf("server saw %q", got)
	}
	if issuer.discoveryHits+issuer.tokenHits != 0 || len(persister.saved) != 0 {
		t.Errorf("a valid token caused a refresh")
	}
}

func TestExpiredIDTokenIsRefreshedAndPersisted(t *testing.T) {
	for _, useTLS := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%t", useTLS), func(t *testing.T) {
			issuer := newFakeIssuer(t, useTLS)
			fresh := tokenExpiringAt(t, testNow.Add(time.Hour))
			issuer.acceptedRefresh, issuer.nextRefresh, issuer.idToken = "rt-1", "rt-2", fresh

			cfg := map[string]string{
				cfgIssuerURL:    issuer.URL + "/", // trailing slash is tolerated
				cfgClientID:     "kubectl",
				cfgClientSecret: "s3cret",
				// Expires within expiryDelta: already treated as expired.
				cfgIDToken:      tokenExpiringAt(t, testNow.Add(5*time.Second)),
				cfgRefreshToken: "rt-1",
			}
			if useTLS {
				ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: issuer.Certificate().Raw})
				cfg[cfgCertificateAuthorityData] = base64.StdEncoding.EncodeToString(ca)
			}
			original := maps.Clone(cfg)
			persister := &recordingPersister{}
			p := newProvider(t, cfg, persister)
			srv, seen := apiServer(t)
			rt := p.WrapTransport(http.DefaultTransport)
			for i := 0; i < 3; i++ {
				if err := get(t, rt, srv.URL, nil); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
			}
			for i, h := range seen() {
				if h != "Bearer "+fresh {
					t.Errorf("request %d sent %q, want the refreshed token", i, h)
				}
			}
			if issuer.tokenHits != 1 || issuer.discoveryHits != 1 {
				t.Errorf("issuer hits: discovery %d, token %d; want 1 each", issuer.discoveryHits, issuer.tokenHits)
			}
			if issuer.lastClientSecret != "s3cret" {
				t.Errorf("client secret sent = %q", issuer.lastClientSecret)
			}
			if len(persister.saved) != 1 {
				t.Fatalf("persisted %d times, want 1", len(persister.saved))
			}
			saved := persister.saved[0]
			if saved[cfgIDToken] != fresh || saved[cfgRefreshToken] != "rt-2" || saved[cfgClientSecret] != "s3cret" {
				t.Errorf("persisted config = %v", saved)
			}
			if !maps.Equal(cfg, original) {
				t.Errorf("caller's config map was modified")
			}
		})
	}
}

func TestRefreshKeepsRefreshTokenWhenNotRotated(t *testing.T) {
	issuer := newFakeIssuer(t, false)
	issuer.acceptedRefresh, issuer.idToken = "rt-1", tokenExpiringAt(t, testNow.Add(time.Hour))
	persister := &recordingPersister{}
	p := newProvider(t, map[string]string{cfgIssuerURL: issuer.URL, cfgClientID: "c", cfgRefreshToken: "rt-1"}, persister)
	if _, err := p.idToken(); err != nil {
		t.Fatal(err)
	}
	if got := persister.saved[0][cfgRefreshToken]; got != "rt-1" {
		t.Errorf("refresh token = %q, want rt-1", got)
	}
}

func TestRefreshErrors(t *testing.T) {
	expired := func(t *testing.T) string { return tokenExpiringAt(t, testNow.Add(-time.Hour)) }
	tests := []struct {
		name      string
		setup     func(f *fakeIssuer)
		cfg       func(t *testing.T, f *fakeIssuer) map[string]string
		persister *recordingPersister
		want      string
	}{
		{
			name: "no refresh token",
			cfg: func(t *testing.T, f *fakeIssuer) map[string]string {
				return map[string]string{cfgIssuerURL: f.URL, cfgClientID: "c", cfgIDToken: expired(t)}
			},
			want: "cannot refresh without refresh-token",
		},
		{
			name:  "discovery fails",
			setup: func(f *fakeIssuer) { f.discoveryStatus = http.StatusNotFound },
			cfg: func(t *testing.T, f *fakeIssuer) map[string]string {
				return map[string]string{cfgIssuerURL: f.URL, cfgClientID: "c", cfgRefreshToken: "rt"}
			},
			want: "failed to query metadata endpoint 404 Not Found",
		},
		{
			name: "refresh token rejected",
			cfg: func(t *testing.T, f *fakeIssuer) map[string]string {
				return map[string]string{cfgIssuerURL: f.URL, cfgClientID: "c", cfgRefreshToken: "stale"}
			},
			want: "failed to refresh token",
		},
		{
			name:  "no id_token in response",
			setup: func(f *fakeIssuer) { f.acceptedRefresh = "rt" },
			cfg: func(t *testing.T, f *fakeIssuer) map[string]string {
				return map[string]string{cfgIssuerURL: f.URL, cfgClientID: "c", cfgRefreshToken: "rt"}
			},
			want: "did not contain an id_token",
		},
		{
			name:      "persist fails",
			setup:     func(f *fakeIssuer) { f.acceptedRefresh, f.idToken = "rt", "a.b.c" },
			persister: &recordingPersister{err: errors.New("disk full")},
			cfg: func(t *testing.T, f *fakeIssuer) map[string]string {
				return map[string]string{cfgIssuerURL: f.URL, cfgClientID: "c", cfgRefreshToken: "rt"}
			},
			want: "could not persist new tokens: disk full",
		},
		{
			name: "malformed id token",
			cfg: func(t *testing.T, f *fakeIssuer) map[string]string {
				return map[string]string{cfgIssuerURL: f.URL, cfgClientID: "c", cfgIDToken: "not-a-jwt", cfgRefreshToken: "rt"}
			},
			want: "not a valid JWT",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeIssuer(t, false)
			if tt.setup != nil {
				tt.setup(f)
			}
			persister := tt.persister
			if persister == nil {
				persister = &recordingPersister{}
			}
			p := newProvider(t, tt.cfg(t, f), persister)
			err := get(t, p.WrapTransport(http.DefaultTransport), "http://127.0.0.1:1/", nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
			if len(persister.saved) != 0 {
				t.Errorf("config persisted after a failure")
			}
		})
	}
}

func TestExistingAuthorizationHeaderWins(t *testing.T) {
	p := newProvider(t, map[string]string{cfgIssuerURL: "https://unused", cfgClientID: "c"}, &recordingPersister{})
	srv, seen := apiServer(t)
	// No token is configured: without the header the request would fail.
	if err := get(t, p.WrapTransport(http.DefaultTransport), srv.URL, map[string]string{"Authorization": "Bearer caller"}); err != nil {
		t.Fatal(err)
	}
	if got := seen(); got[0] != "Bearer caller" {
		t.Errorf("server saw %q", got[0])
	}
}

func TestNewProviderValidation(t *testing.T) {
	for _, tc := range []struct {
		cfg  map[string]string
		want string
	}{
		{map[string]string{cfgClientID: "c"}, "Must provide idp-issuer-url"},
		{map[string]string{cfgIssuerURL: "https://i"}, "Must provide client-id"},
		{map[string]string{cfgIssuerURL: "https://i", cfgClientID: "c", cfgCertificateAuthorityData: "%%%"}, "idp-certificate-authority-data"},
	} {
		_, err := newOIDCAuthProvider("https://validation.cluster", tc.cfg, &recordingPersister{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestProvidersAreShared(t *testing.T) {
	cfg := map[string]string{cfgIssuerURL: "https://issuer.shared", cfgClientID: "c"}
	a, err := newOIDCAuthProvider("https://shared.cluster", cfg, &recordingPersister{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newOIDCAuthProvider("https://shared.cluster", maps.Clone(cfg), &recordingPersister{})
	c, _ := newOIDCAuthProvider("https://other.cluster", cfg, &recordingPersister{})
	if a != b {
		t.Errorf("same cluster, issuer and client got different providers")
	}
	if a == c {
		t.Errorf("different clusters share a provider")
	}
}

func TestRegisteredWithRest(t *testing.T) {
	_, err := restclient.GetAuthProvider("https://registered.cluster", &clientcmdapi.AuthProviderConfig{Name: "oidc", Config: map[string]string{}}, nil)
	if err == nil || !strings.Contains(err.Error(), "Must provide idp-issuer-url") {
		t.Fatalf("GetAuthProvider(oidc) error = %v, want the oidc provider's validation error", err)
	}
}

func TestLoginIsNotSupported(t *testing.T) {
	p := newProvider(t, map[string]string{cfgIssuerURL: "https://i", cfgClientID: "c"}, &recordingPersister{})
	if err := p.Login(); err == nil {
		t.Fatal("Login succeeded")
	}
}

func TestIDTokenValid(t *testing.T) {
	now := func() time.Time { return testNow }
	enc := base64.RawURLEncoding.EncodeToString
	tests := []struct {
		name    string
		token   string
		want    bool
		wantErr bool
	}{
		{"valid", tokenExpiringAt(t, testNow.Add(time.Minute)), true, false},
		{"inside expiry delta", tokenExpiringAt(t, testNow.Add(expiryDelta-time.Second)), false, false},
		{"expired", tokenExpiringAt(t, testNow.Add(-time.Minute)), false, false},
		{"fractional exp", "h." + enc([]byte(fmt.Sprintf(`{"exp":%d.5}`, testNow.Add(time.Hour).Unix()))) + ".s", true, false},
		{"no exp", jwt(t, map[string]any{"sub": "x"}), false, false},
		{"padded payload", "h." + base64.URLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"exp":%d}`, testNow.Add(time.Hour).Unix()))) + ".s", true, false},
		{"two parts", "a.b", false, true},
		{"bad base64", "h.!!!.s", false, true},
		{"bad json", "h." + enc([]byte("nope")) + ".s", false, true},
		{"exp not a number", "h." + enc([]byte(`{"exp":"soon"}`)) + ".s", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := idTokenValid(now, tt.token)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, wantErr %t", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("valid = %t, want %t", got, tt.want)
			}
		})
	}
}

// TestIDTokenStaysWithItsOrigin: a redirect to another server is followed
// without the ID token (client-go sends it on every hop), one within the
// origin keeps it.
func TestIDTokenStaysWithItsOrigin(t *testing.T) {
	valid := tokenExpiringAt(t, testNow.Add(time.Hour))
	p := newProvider(t, map[string]string{cfgIssuerURL: "https://unused", cfgClientID: "kubectl", cfgIDToken: valid}, &recordingPersister{})
	for _, code := range []int{301, 302, 307, 308} {
		other, seenOther := apiServer(t)
		var landedMu sync.Mutex
		var landedAtOrigin string
		mux := http.NewServeMux()
		mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL+"/x", code) })
		mux.HandleFunc("/near", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/landing", code) })
		mux.HandleFunc("/landing", func(w http.ResponseWriter, r *http.Request) {
			landedMu.Lock()
			defer landedMu.Unlock()
			landedAtOrigin = r.Header.Get("Authorization")
		})
		origin := httptest.NewServer(mux)
		client := &http.Client{Transport: p.WrapTransport(http.DefaultTransport)}
		for _, path := range []string{"/away", "/near"} {
			resp, err := client.Get(origin.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		if got := seenOther(); len(got) != 1 || got[0] != "" {
			t.Errorf("%d: the other server saw Authorization %q", code, got)
		}
		landedMu.Lock()
		landed := landedAtOrigin
		landedMu.Unlock()
		if landed != "Bearer "+valid {
			t.Errorf("%d: a redirect within the origin lost the token: %q", code, landed)
		}
		origin.Close()
	}
}
