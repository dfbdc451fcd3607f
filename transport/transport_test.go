package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// anyError marks test cases where the request must fail but the message
// depends on the TLS version (a TLS 1.3 client learns of a rejected client
// certificate only after the handshake).
const anyError = "<any error>"

func TestNewTLSClientAuthentication(t *testing.T) {
	ca := newTestCA(t, "cluster-ca")
	otherCA := newTestCA(t, "other-ca")
	srv := newTLSAPIServer(t, ca, ca, nil)
	client := ca.clientCert(t, "alice")
	untrusted := otherCA.clientCert(t, "mallory")
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.crt", ca.certPEM)
	certFile := writeFile(t, dir, "alice.crt", client.certPEM)
	keyFile := writeFile(t, dir, "alice.key", client.keyPEM)

	tests := []struct {
		name     string
		tls      TLSConfig
		wantUser string
		wantErr  string
	}{
		{
			name:     "inline CA, cert and key",
			tls:      TLSConfig{CAData: ca.certPEM, CertData: client.certPEM, KeyData: client.keyPEM},
			wantUser: "alice",
		},
		{
			name:     "CA, cert and key files",
			tls:      TLSConfig{CAFile: caFile, CertFile: certFile, KeyFile: keyFile},
			wantUser: "alice",
		},
		{
			name:     "file cert with inline key",
			tls:      TLSConfig{CAFile: caFile, CertFile: certFile, KeyData: client.keyPEM},
			wantUser: "alice",
		},
		{
			name:     "ServerName used for verification",
			tls:      TLSConfig{CAData: ca.certPEM, CertData: client.certPEM, KeyData: client.keyPEM, ServerName: "kubernetes.default.svc"},
			wantUser: "alice",
		},
		{
			name:    "ServerName not in the serving certificate",
			tls:     TLSConfig{CAData: ca.certPEM, CertData: client.certPEM, KeyData: client.keyPEM, ServerName: "evil.example.com"},
			wantErr: "evil.example.com",
		},
		{
			name:    "server signed by an untrusted CA",
			tls:     TLSConfig{CAData: otherCA.certPEM, CertData: client.certPEM, KeyData: client.keyPEM},
			wantErr: "certificate signed by unknown authority",
		},
		{
			name:    "client certificate of an untrusted CA",
			tls:     TLSConfig{CAData: ca.certPEM, CertData: untrusted.certPEM, KeyData: untrusted.keyPEM},
			wantErr: anyError,
		},
		{
			name:    "no client certificate",
			tls:     TLSConfig{CAData: ca.certPEM},
			wantErr: anyError,
		},
		{
			name:     "insecure skips server verification",
			tls:      TLSConfig{Insecure: true, CertData: client.certPEM, KeyData: client.keyPEM},
			wantUser: "alice",
		},
		{
			name: "certificate callback",
			tls: TLSConfig{CAData: ca.certPEM, GetCertHolder: &GetCertHolder{GetCert: func() (*tls.Certificate, error) {
				c := client.tlsCertificate(t)
				return &c, nil
			}}},
			wantUser: "alice",
		},
		{
			name: "inline certificate wins over the callback",
			tls: TLSConfig{CAData: ca.certPEM, CertData: client.certPEM, KeyData: client.keyPEM, GetCertHolder: &GetCertHolder{GetCert: func() (*tls.Certificate, error) {
				return nil, errors.New("callback must not be called")
			}}},
			wantUser: "alice",
		},
		{
			name: "callback error fails the handshake",
			tls: TLSConfig{CAData: ca.certPEM, GetCertHolder: &GetCertHolder{GetCert: func() (*tls.Certificate, error) {
				return nil, errors.New("token expired")
			}}},
			wantErr: "token expired",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := New(&Config{TLS: tt.tls})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			user, err := whoAmI(t, rt, srv.URL)
			if tt.wantErr != "" {
				if err == nil || tt.wantErr != anyError && !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got user %q, error %v; want error containing %q", user, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("request failed: %v", err)
			}
			if user != tt.wantUser {
				t.Errorf("server saw user %q, want %q", user, tt.wantUser)
			}
		})
	}
}

func TestCertCallbackWithoutCertificateSendsNone(t *testing.T) {
	ca := newTestCA(t, "cluster-ca")
	srv := newTLSAPIServer(t, ca, nil, nil, func(srv *httptest.Server) { srv.TLS.ClientAuth = tls.RequestClientCert })
	var calls atomic.Int32
	rt, err := New(&Config{TLS: TLSConfig{CAData: ca.certPEM, GetCertHolder: &GetCertHolder{GetCert: func() (*tls.Certificate, error) {
		calls.Add(1)
		return nil, nil
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	user, err := whoAmI(t, rt, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if user != "anonymous" || calls.Load() == 0 {
		t.Errorf("user %q after %d callback calls; want anonymous after at least one call", user, calls.Load())
	}
}

func TestNewRejectsBadConfigs(t *testing.T) {
	ca := newTestCA(t, "ca")
	client := ca.clientCert(t, "alice")
	tests := []struct {
		name    string
		config  Config
		wantErr string
	}{
		{"insecure with CA data", Config{TLS: TLSConfig{Insecure: true, CAData: ca.certPEM}}, "root certificates file with the insecure flag is not allowed"},
		{"insecure with CA file", Config{TLS: TLSConfig{Insecure: true, CAFile: writeFile(t, t.TempDir(), "ca.crt", ca.certPEM)}}, "insecure flag is not allowed"},
		{"custom transport with CA", Config{Transport: http.DefaultTransport, TLS: TLSConfig{CAData: ca.certPEM}}, "custom transport with TLS certificate options"},
		{"custom transport with insecure", Config{Transport: http.DefaultTransport, TLS: TLSConfig{Insecure: true}}, "custom transport"},
		{"custom transport with cert callback", Config{Transport: http.DefaultTransport, TLS: TLSConfig{GetCertHolder: &GetCertHolder{GetCert: func() (*tls.Certificate, error) { return nil, nil }}}}, "custom transport"},
		{"cert holder without func", Config{TLS: TLSConfig{GetCertHolder: &GetCertHolder{}}}, "misconfigured holder"},
		{"dial holder without func", Config{DialHolder: &DialHolder{}}, "misconfigured holder"},
		{"CA data not PEM", Config{TLS: TLSConfig{CAData: []byte("not a certificate")}}, "unable to load root certificates: unable to parse bytes as PEM block"},
		{"CA PEM without certificates", Config{TLS: TLSConfig{CAData: client.keyPEM}}, "no valid certificate authority data seen"},
		{"CA PEM with corrupt certificate", Config{TLS: TLSConfig{CAData: []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")}}, "failed to parse certificate"},
		{"mismatched key", Config{TLS: TLSConfig{CertData: client.certPEM, KeyData: ca.clientCert(t, "bob").keyPEM}}, "private key does not match public key"},
		{"missing CA file", Config{TLS: TLSConfig{CAFile: "/nonexistent/ca.crt"}}, "/nonexistent/ca.crt"},
		{"missing cert file", Config{TLS: TLSConfig{CertFile: "/nonexistent/tls.crt", KeyFile: "/nonexistent/tls.key"}}, "/nonexistent/tls.crt"},
		{"basic auth and token", Config{Username: "u", BearerToken: "t"}, "username/password or bearer token may be set, but not both"},
		{"unreadable token file", Config{BearerTokenFile: "/nonexistent/token"}, "failed to read token file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, err := New(&tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("New = %v, %v; want error containing %q", rt, err, tt.wantErr)
			}
		})
	}
}

func TestTLSConfigFor(t *testing.T) {
	ca := newTestCA(t, "ca")
	client := ca.clientCert(t, "alice")

	if got, err := TLSConfigFor(&Config{Username: "u", BearerToken: "x"}); got != nil || err != nil {
		t.Errorf("no TLS settings: got %v, %v; want nil, nil", got, err)
	}

	cfg, err := TLSConfigFor(&Config{TLS: TLSConfig{
		CAData:     ca.certPEM,
		CertData:   client.certPEM,
		KeyData:    client.keyPEM,
		ServerName: "kubernetes.default.svc",
		NextProtos: []string{"http/1.1"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MinVersion != tls.VersionTLS12 {
		t.Errorf("MinVersion = %x, want TLS 1.2", cfg.MinVersion)
	}
	if cfg.ServerName != "kubernetes.default.svc" || len(cfg.NextProtos) != 1 || cfg.NextProtos[0] != "http/1.1" {
		t.Errorf("ServerName %q NextProtos %v not carried over", cfg.ServerName, cfg.NextProtos)
	}
	if cfg.RootCAs == nil || cfg.InsecureSkipVerify {
		t.Errorf("RootCAs %v InsecureSkipVerify %v", cfg.RootCAs, cfg.InsecureSkipVerify)
	}
	cert, err := cfg.GetClientCertificate(nil)
	if err != nil || len(cert.Certificate) != 1 {
		t.Fatalf("GetClientCertificate = %v, %v", cert, err)
	}

	// Settings that only shape the handshake still produce a config.
	for _, c := range []*Config{
		{TLS: TLSConfig{ServerName: "x"}},
		{TLS: TLSConfig{NextProtos: []string{"h2"}}},
		{TLS: TLSConfig{Insecure: true}},
	} {
		cfg, err := TLSConfigFor(c)
		if err != nil || cfg == nil {
			t.Errorf("TLSConfigFor(%+v) = %v, %v; want a config", c.TLS, cfg, err)
		}
	}
}

func TestTLSConfigForLoadsFilesIntoConfig(t *testing.T) {
	ca := newTestCA(t, "ca")
	client := ca.clientCert(t, "alice")
	dir := t.TempDir()
	c := &Config{TLS: TLSConfig{
		CAFile:   writeFile(t, dir, "ca.crt", ca.certPEM),
		CertFile: writeFile(t, dir, "tls.crt", client.certPEM),
		KeyFile:  writeFile(t, dir, "tls.key", client.keyPEM),
	}}
	if _, err := TLSConfigFor(c); err != nil {
		t.Fatal(err)
	}
	if string(c.TLS.CAData) != string(ca.certPEM) || string(c.TLS.CertData) != string(client.certPEM) || string(c.TLS.KeyData) != string(client.keyPEM) {
		t.Error("file contents were not copied into the data fields")
	}
	if !c.TLS.ReloadTLSFiles || !c.TLS.ReloadCAFiles {
		t.Errorf("ReloadTLSFiles=%v ReloadCAFiles=%v, want both true for file-only sources", c.TLS.ReloadTLSFiles, c.TLS.ReloadCAFiles)
	}

	// Inline data for one half of the pair means nothing is reloaded.
	c = &Config{TLS: TLSConfig{CertFile: writeFile(t, dir, "x.crt", client.certPEM), KeyData: client.keyPEM}}
	if _, err := TLSConfigFor(c); err != nil {
		t.Fatal(err)
	}
	if c.TLS.ReloadTLSFiles {
		t.Error("ReloadTLSFiles set although the key was inline")
	}
}

func TestNextProtosSelectsHTTPVersion(t *testing.T) {
	ca := newTestCA(t, "ca")
	var lastProto atomic.Value
	srv := newTLSAPIServer(t, ca, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lastProto.Store(r.Proto)
		whoAmIHandler(w, r)
	}))
	for _, tt := range []struct {
		nextProtos []string
		want       string
	}{
		{nil, "HTTP/2.0"},
		{[]string{"http/1.1"}, "HTTP/1.1"},
	} {
		rt, err := New(&Config{TLS: TLSConfig{CAData: ca.certPEM, NextProtos: tt.nextProtos}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := whoAmI(t, rt, srv.URL); err != nil {
			t.Fatal(err)
		}
		if got := lastProto.Load(); got != tt.want {
			t.Errorf("NextProtos %v: server saw %v, want %s", tt.nextProtos, got, tt.want)
		}
	}
}

func TestTransportDefaults(t *testing.T) {
	ca := newTestCA(t, "ca")
	var dialed atomic.Int32
	dial := &DialHolder{Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		dialed.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, address)
	}}
	rt, err := New(&Config{TLS: TLSConfig{CAData: ca.certPEM}, DisableCompression: true, DialHolder: dial})
	if err != nil {
		t.Fatal(err)
	}
	ht := innermostHTTPTransport(t, rt)
	if !ht.DisableCompression {
		t.Error("DisableCompression not applied")
	}
	if ht.MaxIdleConnsPerHost != 25 {
		t.Errorf("MaxIdleConnsPerHost = %d, want 25", ht.MaxIdleConnsPerHost)
	}
	if ht.Proxy == nil {
		t.Error("Proxy should default to the environment")
	}
	if _, ok := ht.TLSNextProto["h2"]; !ok {
		t.Error("HTTP/2 was not configured on the transport")
	}
	srv := newTLSAPIServer(t, ca, nil, nil)
	if _, err := whoAmI(t, rt, srv.URL); err != nil {
		t.Fatal(err)
	}
	if dialed.Load() == 0 {
		t.Error("custom dial function was not used")
	}
}

func TestTransportHonoursDisableHTTP2(t *testing.T) {
	t.Setenv("DISABLE_HTTP2", "true")
	ca := newTestCA(t, "ca")
	rt, err := New(&Config{TLS: TLSConfig{CAData: ca.certPEM}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := innermostHTTPTransport(t, rt).TLSNextProto["h2"]; ok {
		t.Error("HTTP/2 configured although DISABLE_HTTP2 is set")
	}
}

func TestProxyFunc(t *testing.T) {
	// A plain HTTP "proxy" receives the absolute-form request.
	var gotURI atomic.Value
	proxy := newPlainServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotURI.Store(r.RequestURI)
		whoAmIHandler(w, r)
	}))
	proxyURL := mustParseURL(t, proxy.URL)
	rt, err := New(&Config{Proxy: http.ProxyURL(proxyURL)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := whoAmI(t, rt, "http://apiserver.invalid:6443"); err != nil {
		t.Fatal(err)
	}
	if got := gotURI.Load(); got != "http://apiserver.invalid:6443/api/v1/namespaces/default" {
		t.Errorf("proxy saw request URI %v", got)
	}
}

func TestNoTLSSettingsUsesDefaultTransport(t *testing.T) {
	rt, err := New(&Config{})
	if err != nil {
		t.Fatal(err)
	}
	if rt != http.DefaultTransport {
		t.Errorf("got %T, want http.DefaultTransport", rt)
	}
	custom := &recordingRoundTripper{}
	rt, err = New(&Config{Transport: custom})
	if err != nil || rt != custom {
		t.Errorf("custom transport: got %v, %v", rt, err)
	}
}
