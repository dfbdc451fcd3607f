package transport

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
)

// tagWrapper returns a wrapper that appends name to the X-Chain header, so
// the order in which wrappers run is visible on the request.
func tagWrapper(name string) WrapperFunc {
	return func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			req.Header.Add("X-Chain", name)
			return rt.RoundTrip(req)
		})
	}
}

func TestWrappers(t *testing.T) {
	if Wrappers() != nil {
		t.Error("Wrappers() should be nil")
	}
	tests := []struct {
		name string
		fns  []WrapperFunc
		want []string // outermost first
	}{
		{"single after nil", []WrapperFunc{nil, tagWrapper("a")}, []string{"a"}},
		{"in order", []WrapperFunc{tagWrapper("a"), tagWrapper("b"), tagWrapper("c")}, []string{"c", "b", "a"}},
		{"nils skipped", []WrapperFunc{tagWrapper("a"), nil, tagWrapper("b"), nil}, []string{"b", "a"}},
		{"all nil", []WrapperFunc{nil, nil, nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := &recordingRoundTripper{}
			rt := Wrappers(tt.fns...)(base)
			resp, err := rt.RoundTrip(newGet(t, "http://example.invalid/"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := base.last(t).Header.Values("X-Chain"); !slices.Equal(got, tt.want) {
				t.Errorf("wrappers ran as %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConfigWrapAppends(t *testing.T) {
	c := &Config{}
	c.Wrap(tagWrapper("first"))
	c.Wrap(tagWrapper("second"))
	base := &recordingRoundTripper{}
	resp, err := c.WrapTransport(base).RoundTrip(newGet(t, "http://example.invalid/"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// The later wrapper wraps the earlier one, so it runs first.
	if got := base.last(t).Header.Values("X-Chain"); !slices.Equal(got, []string{"second", "first"}) {
		t.Errorf("got %v", got)
	}
}

func TestContextCanceller(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	errClosed := errors.New("client closed")
	base := &recordingRoundTripper{}
	rt := ContextCanceller(ctx, errClosed)(base)

	resp, err := rt.RoundTrip(newGet(t, "http://example.invalid/"))
	if err != nil {
		t.Fatalf("before cancel: %v", err)
	}
	resp.Body.Close()
	cancel()
	if _, err := rt.RoundTrip(newGet(t, "http://example.invalid/")); !errors.Is(err, errClosed) {
		t.Errorf("after cancel: %v, want %v", err, errClosed)
	}
	if len(base.requests) != 1 {
		t.Errorf("%d requests reached the base, want 1", len(base.requests))
	}
}

func TestConfigHasMethods(t *testing.T) {
	holder := &GetCertHolder{}
	tests := []struct {
		name                                     string
		c                                        Config
		ca, basic, token, certAuth, certCallback bool
	}{
		{name: "empty"},
		{name: "CA data", c: Config{TLS: TLSConfig{CAData: []byte("x")}}, ca: true},
		{name: "CA file", c: Config{TLS: TLSConfig{CAFile: "ca.crt"}}, ca: true},
		{name: "username", c: Config{Username: "u"}, basic: true},
		{name: "password only", c: Config{Password: "p"}},
		{name: "token", c: Config{BearerToken: "t"}, token: true},
		{name: "token file", c: Config{BearerTokenFile: "/t"}, token: true},
		{name: "cert data and key file", c: Config{TLS: TLSConfig{CertData: []byte("c"), KeyFile: "k"}}, certAuth: true},
		{name: "cert file and key data", c: Config{TLS: TLSConfig{CertFile: "c", KeyData: []byte("k")}}, certAuth: true},
		{name: "cert without key", c: Config{TLS: TLSConfig{CertData: []byte("c")}}},
		{name: "callback", c: Config{TLS: TLSConfig{GetCertHolder: holder}}, certCallback: true},
	}
	for _, tt := range tests {
		c := tt.c
		got := []bool{c.HasCA(), c.HasBasicAuth(), c.HasTokenAuth(), c.HasCertAuth(), c.HasCertCallback()}
		want := []bool{tt.ca, tt.basic, tt.token, tt.certAuth, tt.certCallback}
		if !slices.Equal(got, want) {
			t.Errorf("%s: HasCA/HasBasicAuth/HasTokenAuth/HasCertAuth/HasCertCallback = %v, want %v", tt.name, got, want)
		}
	}
}
