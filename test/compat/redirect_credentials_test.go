package compat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kubeclient/client-go/rest"
)

// README: "A redirect keeps them only when it stays on the same scheme,
// host and port ...; a redirect to another host, to another port of the
// same host, or from https to http is followed without them".

// TestRedirectCredentials: a program that gets a bearer-token request
// redirected with 307. Within the same scheme, host and port it is
// authorized as on client-go; to another port of the same host the token
// is not sent, the change the README states.
func TestRedirectCredentials(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer secret-token" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	defer target.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
		case "/other-port":
			http.Redirect(w, r, target.URL+"/final", http.StatusTemporaryRedirect)
		case "/final":
			if r.Header.Get("Authorization") != "Bearer secret-token" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte("ok"))
		}
	}))
	defer origin.Close()

	tests := []struct {
		path       string
		wantStatus int
	}{
		{"/same", http.StatusOK},                 // as on client-go
		{"/other-port", http.StatusUnauthorized}, // client-go: 200, its token sent to the other port
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			client, err := rest.HTTPClientFor(&rest.Config{Host: origin.URL, BearerToken: "secret-token"})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, origin.URL+tt.path, nil)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
		})
	}
}
