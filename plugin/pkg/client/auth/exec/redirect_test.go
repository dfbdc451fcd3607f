package exec

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestPluginTokenStaysWithItsOrigin: a redirect to another server is
// followed without the plugin's token, and that server's 401 does not make
// the plugin run again; a redirect within the origin keeps the token.
// client-go sends the token on every hop.
func TestPluginTokenStaysWithItsOrigin(t *testing.T) {
	counter, counterPath := counterEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion, counter), nil)
	client := &http.Client{Transport: &roundTripper{a: a, base: http.DefaultTransport}}

	var mu sync.Mutex
	seen := map[string]string{} // server -> Authorization it saw
	record := func(name string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name] = r.Header.Get("Authorization")
			mu.Unlock()
			if name == "other" {
				w.WriteHeader(http.StatusUnauthorized)
			}
		}
	}
	other := httptest.NewServer(record("other"))
	defer other.Close()
	for _, code := range []int{301, 302, 307, 308} {
		mux := http.NewServeMux()
		mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL, code) })
		mux.HandleFunc("/near", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/landing", code) })
		mux.HandleFunc("/landing", record("origin"))
		origin := httptest.NewServer(mux)
		for _, path := range []string{"/away", "/near"} {
			resp, err := client.Get(origin.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		origin.Close()

		mu.Lock()
		if seen["other"] != "" {
			t.Errorf("%d: the other server saw %q", code, seen["other"])
		}
		if seen["origin"] != "Bearer token-1" {
			t.Errorf("%d: a redirect within the origin carried %q", code, seen["origin"])
		}
		mu.Unlock()
	}
	if runs := readCounter(t, counterPath); runs != 1 {
		t.Errorf("plugin ran %d times; another server's 401 must not refresh", runs)
	}
}
