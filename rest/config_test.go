package rest

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clientauthenticationapi "github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
	"github.com/kubeclient/client-go/util/flowcontrol"
)

func TestConfigStringRedactsSecrets(t *testing.T) {
	cfg := &Config{
		Host:                "https://example.com",
		Username:            "admin",
		Password:            "hunter2-password",
		BearerToken:         "secret-bearer-token",
		AuthConfigPersister: &fakePersister{},
		ExecProvider: &clientcmdapi.ExecConfig{
			Command: "get-token",
			Config:  &corev1.ConfigMap{Data: map[string]string{"k": "exec-config-secret"}},
		},
		TLSClientConfig: TLSClientConfig{
			CertData: []byte("cert-data-bytes"),
			KeyData:  []byte("private-key-bytes"),
			CAData:   []byte("ca-data"),
		},
	}
	for name, out := range map[string]string{
		"String":   cfg.String(),
		"GoString": cfg.GoString(),
		"%v":       fmt.Sprintf("%v", cfg),
		"%#v":      fmt.Sprintf("%#v", cfg),
		"%+v":      fmt.Sprintf("%+v", cfg),
		"%s":       fmt.Sprintf("%s", cfg),
	} {
		for _, secret := range []string{"hunter2-password", "secret-bearer-token", "private-key-bytes", "exec-config-secret", "cert-data-bytes"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s leaks %q: %s", name, secret, out)
			}
		}
		for _, want := range []string{"--- REDACTED ---", "example.com", "admin", "rest.AuthProviderConfigPersister(--- REDACTED ---)", "runtime.Object(--- REDACTED ---)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q: %s", name, want, out)
			}
		}
	}
	// Printing must not alter the original.
	if cfg.Password != "hunter2-password" || cfg.BearerToken != "secret-bearer-token" || string(cfg.KeyData) != "private-key-bytes" {
		t.Errorf("String modified the config: %#v", *cfg)
	}
	if _, ok := cfg.ExecProvider.Config.(*corev1.ConfigMap); !ok {
		t.Errorf("String replaced ExecProvider.Config: %T", cfg.ExecProvider.Config)
	}
	var nilCfg *Config
	if got := nilCfg.String(); got != "<nil>" {
		t.Errorf("nil Config prints %q", got)
	}
}

func TestTLSClientConfigStringRedactsKey(t *testing.T) {
	c := TLSClientConfig{ServerName: "api", CertData: []byte("CERT"), KeyData: []byte("KEY")}
	for _, out := range []string{c.String(), c.GoString(), fmt.Sprintf("%#v", c), fmt.Sprintf("%v", c)} {
		if strings.Contains(out, `"KEY"`) || strings.Contains(out, "0x4b, 0x45, 0x59") || strings.Contains(out, `"CERT"`) {
			t.Errorf("leaks key or cert: %s", out)
		}
		if !strings.Contains(out, "api") {
			t.Errorf("lost the server name: %s", out)
		}
	}
}

func TestTLSClientConfigDeepCopy(t *testing.T) {
	in := &TLSClientConfig{CAData: []byte("ca"), NextProtos: []string{"h2"}}
	out := in.DeepCopy()
	out.CAData[0] = 'X'
	out.NextProtos[0] = "http/1.1"
	if string(in.CAData) != "ca" || in.NextProtos[0] != "h2" {
		t.Errorf("DeepCopy shares memory: %+v", in)
	}
	var nilIn *TLSClientConfig
	if nilIn.DeepCopy() != nil {
		t.Error("DeepCopy of nil is not nil")
	}
}

func TestCopyConfigCopiesEveryField(t *testing.T) {
	gv := corev1.SchemeGroupVersion
	limiter := flowcontrol.NewFakeAlwaysRateLimiter()
	execCfg := &corev1.ConfigMap{Data: map[string]string{"a": "b"}}
	orig := &Config{
		Host: "h", APIPath: "/api",
		ContentConfig: ContentConfig{ContentType: "application/json", AcceptContentTypes: "a/b", GroupVersion: &gv},
		Username:      "u", Password: "p", BearerToken: "t", BearerTokenFile: "/f",
		Impersonate:     ImpersonationConfig{UserName: "x", UID: "1", Groups: []string{"g"}, Extra: map[string][]string{"k": {"v"}}},
		AuthProvider:    &clientcmdapi.AuthProviderConfig{Name: "p"},
		ExecProvider:    &clientcmdapi.ExecConfig{Command: "c", Config: execCfg},
		TLSClientConfig: TLSClientConfig{Insecure: true, ServerName: "s", CertFile: "cf", KeyFile: "kf", CAFile: "caf", CertData: []byte("c"), KeyData: []byte("k"), CAData: []byte("ca"), NextProtos: []string{"h2"}},
		UserAgent:       "ua", DisableCompression: true,
		QPS: 3, Burst: 4, RateLimiter: limiter,
		WarningHandler: NoWarnings{}, WarningHandlerWithContext: NoWarnings{},
		Timeout: time.Second,
	}
	c := CopyConfig(orig)
	if c == orig {
		t.Fatal("CopyConfig returned the same pointer")
	}
	if c.Host != "h" || c.APIPath != "/api" || c.ContentType != "application/json" || c.GroupVersion != &gv ||
		c.Password != "p" || c.BearerToken != "t" || c.BearerTokenFile != "/f" || c.Impersonate.UID != "1" ||
		c.AuthProvider.Name != "p" || c.ExecProvider.Command != "c" || !c.Insecure || string(c.KeyData) != "k" ||
		c.UserAgent != "ua" || !c.DisableCompression || c.QPS != 3 || c.Burst != 4 || c.RateLimiter != limiter ||
		c.WarningHandler == nil || c.WarningHandlerWithContext == nil || c.Timeout != time.Second {
		t.Errorf("copy differs: %#v", c)
	}
	if c.ExecProvider.Config == execCfg {
		t.Error("exec plugin configuration object is shared, want a deep copy")
	}
	if orig.ExecProvider.Config != execCfg {
		t.Error("CopyConfig changed the original exec configuration")
	}
}

func TestAnonymousClientConfigDropsCredentials(t *testing.T) {
	orig := &Config{
		Host: "https://h", Username: "u", Password: "p", BearerToken: "t", BearerTokenFile: "/f",
		Impersonate:     ImpersonationConfig{UserName: "x"},
		AuthProvider:    &clientcmdapi.AuthProviderConfig{Name: "p"},
		ExecProvider:    &clientcmdapi.ExecConfig{Command: "c"},
		TLSClientConfig: TLSClientConfig{ServerName: "s", CertData: []byte("c"), KeyData: []byte("k"), CertFile: "cf", KeyFile: "kf", CAData: []byte("ca"), CAFile: "caf"},
		Transport:       http.DefaultTransport,
		WrapTransport:   func(rt http.RoundTripper) http.RoundTripper { return rt },
		QPS:             7, Burst: 8, UserAgent: "ua",
	}
	a := AnonymousClientConfig(orig)
	if a.Username != "" || a.Password != "" || a.BearerToken != "" || a.BearerTokenFile != "" ||
		a.Impersonate.UserName != "" || a.AuthProvider != nil || a.ExecProvider != nil ||
		a.CertData != nil || a.KeyData != nil || a.CertFile != "" || a.KeyFile != "" ||
		a.Transport != nil || a.WrapTransport != nil {
		t.Errorf("credentials kept: %#v", a)
	}
	if a.Host != "https://h" || a.ServerName != "s" || string(a.CAData) != "ca" || a.CAFile != "caf" || a.QPS != 7 || a.Burst != 8 || a.UserAgent != "ua" {
		t.Errorf("connection settings lost: %#v", a)
	}
}

func TestDefaultServerURL(t *testing.T) {
	apps := schema.GroupVersion{Group: "apps", Version: "v1"}
	tests := []struct {
		host, apiPath string
		gv            schema.GroupVersion
		tls           bool
		wantURL       string
		wantPath      string
		wantErr       bool
	}{
		{host: "example.com", apiPath: "/api", gv: corev1.SchemeGroupVersion, wantURL: "http://example.com", wantPath: "/api/v1"},
		{host: "example.com:6443", apiPath: "/apis", gv: apps, tls: true, wantURL: "https://example.com:6443", wantPath: "/apis/apps/v1"},
		{host: "https://example.com/proxy", apiPath: "api", gv: corev1.SchemeGroupVersion, wantURL: "https://example.com/proxy", wantPath: "/api/v1"},
		{host: "http://127.0.0.1:8080", apiPath: "", gv: schema.GroupVersion{}, wantURL: "http://127.0.0.1:8080", wantPath: "/"},
		{host: "example.com/path", wantErr: true},
		{host: "", wantErr: true},
	}
	for _, tc := range tests {
		u, p, err := DefaultServerURL(tc.host, tc.apiPath, tc.gv, tc.tls)
		if tc.wantErr {
			if err == nil {
				t.Errorf("%q: want error, got %v", tc.host, u)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.host, err)
			continue
		}
		if u.String() != tc.wantURL || p != tc.wantPath {
			t.Errorf("%q: got %s %s, want %s %s", tc.host, u, p, tc.wantURL, tc.wantPath)
		}
	}
}

func TestDefaultServerUrlForAndTLSDetection(t *testing.T) {
	tests := []struct {
		cfg     Config
		wantTLS bool
		wantURL string
	}{
		{Config{}, false, "http://localhost"},
		{Config{Host: "h:1"}, false, "http://h:1"},
		{Config{Host: "h:1", TLSClientConfig: TLSClientConfig{CAData: []byte("x")}}, true, "https://h:1"},
		{Config{Host: "h:1", TLSClientConfig: TLSClientConfig{CertFile: "x"}}, true, "https://h:1"},
		{Config{Host: "h:1", TLSClientConfig: TLSClientConfig{Insecure: true}}, true, "https://h:1"},
		{Config{Host: "https://h:1"}, true, "https://h:1"},
		{Config{Host: "http://h:1", TLSClientConfig: TLSClientConfig{CAData: []byte("x")}}, false, "http://h:1"},
		{Config{Host: "h/with/path"}, false, ""},
	}
	for _, tc := range tests {
		if got := IsConfigTransportTLS(tc.cfg); got != tc.wantTLS {
			t.Errorf("IsConfigTransportTLS(%q) = %v, want %v", tc.cfg.Host, got, tc.wantTLS)
		}
		u, _, err := DefaultServerUrlFor(&tc.cfg)
		if tc.wantURL == "" {
			if err == nil {
				t.Errorf("DefaultServerUrlFor(%q) should fail", tc.cfg.Host)
			}
			continue
		}
		if err != nil || u.String() != tc.wantURL {
			t.Errorf("DefaultServerUrlFor(%q) = %v, %v; want %s", tc.cfg.Host, u, err, tc.wantURL)
		}
	}
}

func TestDefaultKubernetesUserAgentFormat(t *testing.T) {
	ua := DefaultKubernetesUserAgent()
	want := fmt.Sprintf("%s/", filepath.Base(os.Args[0]))
	if !strings.HasPrefix(ua, want) {
		t.Errorf("user agent %q does not start with %q", ua, want)
	}
	if !strings.Contains(ua, fmt.Sprintf(" (%s/%s) kubernetes/", goruntime.GOOS, goruntime.GOARCH)) {
		t.Errorf("user agent %q lacks platform", ua)
	}

	tests := []struct{ bin, ver, commit, want string }{
		{"/usr/bin/kubectl", "v1.37.2-beta.0+abc", "0123456789abcdef", "kubectl/v1.37.2 (linux/amd64) kubernetes/0123456"},
		{"", "", "", "unknown/unknown (linux/amd64) kubernetes/unknown"},
		{"tool", "v1.0.0", "abc", "tool/v1.0.0 (linux/amd64) kubernetes/abc"},
	}
	for _, tc := range tests {
		if got := userAgentOf(tc.bin, tc.ver, "linux", "amd64", tc.commit); got != tc.want {
			t.Errorf("userAgentOf(%q,%q,%q) = %q, want %q", tc.bin, tc.ver, tc.commit, got, tc.want)
		}
	}

	cfg := &Config{}
	if err := SetKubernetesDefaults(cfg); err != nil || cfg.UserAgent != ua {
		t.Errorf("SetKubernetesDefaults: %v %q", err, cfg.UserAgent)
	}
	cfg.UserAgent = "mine"
	_ = SetKubernetesDefaults(cfg)
	if cfg.UserAgent != "mine" {
		t.Errorf("SetKubernetesDefaults overrode the user agent: %q", cfg.UserAgent)
	}
	if got := AddUserAgent(&Config{}, "ctrl").UserAgent; got != ua+"/ctrl" {
		t.Errorf("AddUserAgent = %q", got)
	}
}

func TestUserAgentIsSent(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("User-Agent")
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	defer srv.Close()
	c := coreV1Client(t, srv, func(c *Config) { c.UserAgent = "my-agent/1.0" })
	if err := c.Get().Resource("pods").Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	if ua := <-got; ua != "my-agent/1.0" {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestLoadTLSFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg := &Config{TLSClientConfig: TLSClientConfig{
		CAFile:   write("ca", "CA"),
		CertFile: write("cert", "CERT"),
		KeyFile:  write("key", "KEY"),
		CertData: []byte("INLINE"),
	}}
	if err := LoadTLSFiles(cfg); err != nil {
		t.Fatal(err)
	}
	if string(cfg.CAData) != "CA" || string(cfg.CertData) != "INLINE" || string(cfg.KeyData) != "KEY" {
		t.Errorf("got CA=%q cert=%q key=%q", cfg.CAData, cfg.CertData, cfg.KeyData)
	}
	missing := &Config{TLSClientConfig: TLSClientConfig{KeyFile: filepath.Join(dir, "absent")}}
	if err := LoadTLSFiles(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing key file: err = %v", err)
	}
	empty := &Config{}
	if err := LoadTLSFiles(empty); err != nil || empty.CAData != nil || empty.CertData != nil || empty.KeyData != nil {
		t.Errorf("empty config: %v %#v", err, empty.TLSClientConfig)
	}
}

// withServiceAccountFiles points the in-cluster file locations at dir.
func withServiceAccountFiles(t *testing.T, token string, ca []byte) {
	t.Helper()
	dir := t.TempDir()
	oldToken, oldCA := serviceAccountTokenFile, serviceAccountCAFile
	serviceAccountTokenFile = filepath.Join(dir, "token")
	serviceAccountCAFile = filepath.Join(dir, "ca.crt")
	t.Cleanup(func() { serviceAccountTokenFile, serviceAccountCAFile = oldToken, oldCA })
	if err := os.WriteFile(serviceAccountTokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	if ca != nil {
		if err := os.WriteFile(serviceAccountCAFile, ca, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInClusterConfigNotInCluster(t *testing.T) {
	for _, env := range [][2]string{{"", ""}, {"10.0.0.1", ""}, {"", "443"}} {
		t.Setenv("KUBERNETES_SERVICE_HOST", env[0])
		t.Setenv("KUBERNETES_SERVICE_PORT", env[1])
		if _, err := InClusterConfig(); err != ErrNotInCluster {
			t.Errorf("env %v: err = %v, want ErrNotInCluster", env, err)
		}
	}
}

func TestInClusterConfigMissingToken(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "443")
	old := serviceAccountTokenFile
	serviceAccountTokenFile = filepath.Join(t.TempDir(), "absent")
	defer func() { serviceAccountTokenFile = old }()
	if _, err := InClusterConfig(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want a not-exist error", err)
	}
}

func TestInClusterConfigTalksToServer(t *testing.T) {
	auth := make(chan string, 1)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case auth <- r.Header.Get("Authorization"):
		default:
		}
		writeJSON(t, w, 200, &corev1.NamespaceList{})
	}))
	defer srv.Close()
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	withServiceAccountFiles(t, "sa-token-1", caPEM)

	u, _ := url.Parse(srv.URL)
	host, port, _ := net.SplitHostPort(u.Host)
	t.Setenv("KUBERNETES_SERVICE_HOST", host)
	t.Setenv("KUBERNETES_SERVICE_PORT", port)

	cfg, err := InClusterConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://"+net.JoinHostPort(host, port) || cfg.BearerToken != "sa-token-1" ||
		cfg.BearerTokenFile != serviceAccountTokenFile || cfg.CAFile != serviceAccountCAFile {
		t.Fatalf("unexpected config %#v", cfg)
	}

	cfg.APIPath = "/api"
	cfg.GroupVersion = &corev1.SchemeGroupVersion
	cfg.NegotiatedSerializer = testCodecs.WithoutConversion()
	client, err := RESTClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var list corev1.NamespaceList
	if err := client.Get().Resource("namespaces").Do(context.Background()).Into(&list); err != nil {
		t.Fatalf("request over TLS with the service account CA failed: %v", err)
	}
	if got := <-auth; got != "Bearer sa-token-1" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestInClusterConfigBadCAIsSkipped(t *testing.T) {
	withServiceAccountFiles(t, "tok", []byte("not a certificate"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "fd00::1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "6443")
	cfg, err := InClusterConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CAFile != "" {
		t.Errorf("an unparsable CA file was kept: %q", cfg.CAFile)
	}
	if cfg.Host != "https://[fd00::1]:6443" {
		t.Errorf("IPv6 host = %q", cfg.Host)
	}
}

func TestRESTClientForValidation(t *testing.T) {
	gv := corev1.SchemeGroupVersion
	tests := []struct {
		name string
		cfg  Config
		fn   func(*Config) (*RESTClient, error)
		want string
	}{
		{"no group version", Config{ContentConfig: ContentConfig{NegotiatedSerializer: testCodecs}}, RESTClientFor, "GroupVersion is required"},
		{"no serializer", Config{ContentConfig: ContentConfig{GroupVersion: &gv}}, RESTClientFor, "NegotiatedSerializer is required"},
		{"unversioned no serializer", Config{}, UnversionedRESTClientFor, "NegotiatedSerializer is required"},
		{"bad host", Config{Host: "a/b", ContentConfig: ContentConfig{GroupVersion: &gv, NegotiatedSerializer: testCodecs}}, RESTClientFor, "host must be a URL"},
		{"exec and auth provider", Config{
			ContentConfig: ContentConfig{GroupVersion: &gv, NegotiatedSerializer: testCodecs},
			ExecProvider:  &clientcmdapi.ExecConfig{Command: "x"},
			AuthProvider:  &clientcmdapi.AuthProviderConfig{Name: "y"},
		}, RESTClientFor, "execProvider and authProvider cannot be used in combination"},
		{"unknown auth provider", Config{
			ContentConfig: ContentConfig{GroupVersion: &gv, NegotiatedSerializer: testCodecs},
			AuthProvider:  &clientcmdapi.AuthProviderConfig{Name: "no-such-plugin"},
		}, RESTClientFor, `no Auth Provider found for name "no-such-plugin"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.fn(&tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := RESTClientForConfigAndClient(&Config{ContentConfig: ContentConfig{NegotiatedSerializer: testCodecs}}, nil); err == nil {
		t.Error("RESTClientForConfigAndClient accepted a config without GroupVersion")
	}
}

func TestUnversionedClientDefaultsToMetaV1(t *testing.T) {
	c, err := UnversionedRESTClientFor(&Config{Host: "h", ContentConfig: ContentConfig{NegotiatedSerializer: testCodecs}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.APIVersion(); got != metav1.SchemeGroupVersion {
		t.Errorf("APIVersion = %v", got)
	}
	u := c.Get().AbsPath("/version").URL()
	if u.String() != "http://h/version" {
		t.Errorf("URL = %s", u)
	}
	shared := &http.Client{}
	c2, err := UnversionedRESTClientForConfigAndClient(&Config{Host: "h", ContentConfig: ContentConfig{NegotiatedSerializer: testCodecs}}, shared)
	if err != nil || c2.Client != shared {
		t.Errorf("shared HTTP client not used: %v", err)
	}
}

func TestRateLimiterDefaults(t *testing.T) {
	shared := flowcontrol.NewFakeAlwaysRateLimiter()
	tests := []struct {
		name    string
		cfg     Config
		wantNil bool
		want    flowcontrol.RateLimiter
		qps     float32
	}{
		{name: "defaults", cfg: Config{}, qps: DefaultQPS},
		{name: "custom", cfg: Config{QPS: 50, Burst: 100}, qps: 50},
		{name: "negative disables", cfg: Config{QPS: -1}, wantNil: true},
		{name: "shared limiter wins", cfg: Config{QPS: -1, RateLimiter: shared}, want: shared},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gv := corev1.SchemeGroupVersion
			tc.cfg.GroupVersion = &gv
			tc.cfg.NegotiatedSerializer = testCodecs
			c, err := RESTClientFor(&tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			rl := c.GetRateLimiter()
			switch {
			case tc.wantNil:
				if rl != nil {
					t.Errorf("limiter = %v, want none", rl)
				}
			case tc.want != nil:
				if rl != tc.want {
					t.Errorf("limiter = %v, want the shared one", rl)
				}
			default:
				if rl == nil || rl.QPS() != tc.qps {
					t.Errorf("limiter = %v, want QPS %v", rl, tc.qps)
				}
			}
		})
	}
	var nilClient *RESTClient
	if nilClient.GetRateLimiter() != nil {
		t.Error("nil client has a rate limiter")
	}
	if DefaultQPS != 5 || DefaultBurst != 10 {
		t.Error("defaults changed")
	}
}

func TestExecClusterConversion(t *testing.T) {
	proxy, _ := url.Parse("http://proxy:3128")
	extension := &corev1.ConfigMap{Data: map[string]string{"audience": "x"}}
	cfg := &Config{
		Host:               "https://api:6443",
		TLSClientConfig:    TLSClientConfig{ServerName: "api.local", Insecure: true, CAData: []byte("CA")},
		DisableCompression: true,
		Proxy:              http.ProxyURL(proxy),
		ExecProvider:       &clientcmdapi.ExecConfig{Config: extension},
	}
	cluster, err := ConfigToExecCluster(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := clientauthenticationapi.Cluster{
		Server: "https://api:6443", TLSServerName: "api.local", InsecureSkipTLSVerify: true,
		CertificateAuthorityData: []byte("CA"), ProxyURL: "http://proxy:3128", DisableCompression: true, Config: extension,
	}
	if fmt.Sprint(*cluster) != fmt.Sprint(want) {
		t.Errorf("cluster = %+v\nwant      %+v", *cluster, want)
	}

	back, err := ExecClusterToConfig(cluster)
	if err != nil {
		t.Fatal(err)
	}
	if back.Host != cfg.Host || back.ServerName != "api.local" || !back.Insecure || string(back.CAData) != "CA" || !back.DisableCompression {
		t.Errorf("round trip lost fields: %#v", back)
	}
	req, _ := http.NewRequest("GET", "https://api:6443", nil)
	if u, _ := back.Proxy(req); u == nil || u.String() != "http://proxy:3128" {
		t.Errorf("proxy = %v", u)
	}
	if _, err := ExecClusterToConfig(&clientauthenticationapi.Cluster{ProxyURL: "://bad"}); err == nil {
		t.Error("bad proxy URL accepted")
	}
	if _, err := ConfigToExecCluster(&Config{TLSClientConfig: TLSClientConfig{CAFile: "/no/such/ca"}}); err == nil {
		t.Error("missing CA file accepted")
	}
}

type headerAuthProvider struct {
	token string
	login int
}

func (p *headerAuthProvider) WrapTransport(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+p.token)
		return rt.RoundTrip(r)
	})
}

func (p *headerAuthProvider) Login() error { p.login++; return nil }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestAuthProviderPlugin(t *testing.T) {
	var gotAddress string
	var gotPersister AuthProviderConfigPersister
	factory := func(addr string, cfg map[string]string, p AuthProviderConfigPersister) (AuthProvider, error) {
		gotAddress, gotPersister = addr, p
		return &headerAuthProvider{token: cfg["token"]}, nil
	}
	if err := RegisterAuthProviderPlugin("test-header-plugin", factory); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		authPluginsLock.Lock()
		defer authPluginsLock.Unlock()
		delete(authPlugins, "test-header-plugin")
	})
	if err := RegisterAuthProviderPlugin("test-header-plugin", factory); err == nil || !strings.Contains(err.Error(), "registered twice") {
		t.Errorf("second registration: %v", err)
	}

	auth := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth <- r.Header.Get("Authorization")
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	defer srv.Close()
	persister := &fakePersister{}
	c := coreV1Client(t, srv, func(c *Config) {
		c.AuthProvider = &clientcmdapi.AuthProviderConfig{Name: "test-header-plugin", Config: map[string]string{"token": "plugin-token"}}
		c.AuthConfigPersister = persister
	})
	if err := c.Get().Resource("pods").Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	if got := <-auth; got != "Bearer plugin-token" {
		t.Errorf("Authorization = %q", got)
	}
	if gotAddress != srv.URL || gotPersister != persister {
		t.Errorf("factory got address %q persister %v", gotAddress, gotPersister)
	}

	// Without a persister the plugin still gets a usable one.
	p, err := GetAuthProvider("h", &clientcmdapi.AuthProviderConfig{Name: "test-header-plugin"}, nil)
	if err != nil || p == nil {
		t.Fatalf("GetAuthProvider: %v", err)
	}
	if gotPersister == nil || gotPersister.Persist(map[string]string{"a": "b"}) != nil {
		t.Error("default persister missing or failing")
	}
}

func TestConfigWrapLayersTransports(t *testing.T) {
	var order []string
	mark := func(name string) func(http.RoundTripper) http.RoundTripper {
		return func(rt http.RoundTripper) http.RoundTripper {
			return roundTripFunc(func(r *http.Request) (*http.Response, error) {
				order = append(order, name)
				return rt.RoundTrip(r)
			})
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	defer srv.Close()
	c := coreV1Client(t, srv, func(c *Config) {
		c.Wrap(mark("first"))
		c.Wrap(mark("second"))
	})
	if err := c.Get().Resource("pods").Do(context.Background()).Error(); err != nil {
		t.Fatal(err)
	}
	// The last wrapper is outermost, so it sees the request first.
	if strings.Join(order, ",") != "second,first" {
		t.Errorf("wrapper order = %v", order)
	}
}

func TestHTTPClientForDefaults(t *testing.T) {
	c, err := HTTPClientFor(&Config{Host: "http://h"})
	if err != nil {
		t.Fatal(err)
	}
	if c != http.DefaultClient {
		t.Errorf("plain config should use http.DefaultClient, got %#v", c)
	}
	c, err = HTTPClientFor(&Config{Host: "http://h", Timeout: 3 * time.Second})
	if err != nil || c == http.DefaultClient || c.Timeout != 3*time.Second {
		t.Errorf("timeout config: %v %#v", err, c)
	}
	tlsCfg, err := TLSConfigFor(&Config{Host: "https://h", TLSClientConfig: TLSClientConfig{Insecure: true, ServerName: "sni"}})
	if err != nil || tlsCfg == nil || !tlsCfg.InsecureSkipVerify || tlsCfg.ServerName != "sni" {
		t.Errorf("TLSConfigFor: %v %+v", err, tlsCfg)
	}
	if tlsCfg, err := TLSConfigFor(&Config{Host: "http://h"}); err != nil || tlsCfg != nil {
		t.Errorf("TLSConfigFor without TLS: %v %v", err, tlsCfg)
	}
	rt, err := HTTPWrappersForConfig(&Config{BearerToken: "tok"}, roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			return nil, fmt.Errorf("no bearer token: %v", r.Header)
		}
		return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://h", nil)
	if _, err := rt.RoundTrip(req); err != nil {
		t.Error(err)
	}
}

func TestTransportConfigCarriesSettings(t *testing.T) {
	dial := func(ctx context.Context, network, address string) (net.Conn, error) { return nil, errors.New("no") }
	cfg := &Config{
		UserAgent: "ua", Username: "u", Password: "p", BearerToken: "t", BearerTokenFile: "/tok",
		Impersonate:     ImpersonationConfig{UserName: "imp", UID: "42", Groups: []string{"g"}, Extra: map[string][]string{"x": {"y"}}},
		TLSClientConfig: TLSClientConfig{Insecure: true, ServerName: "sn", CAFile: "caf", CAData: []byte("ca"), CertFile: "cf", CertData: []byte("c"), KeyFile: "kf", KeyData: []byte("k"), NextProtos: []string{"h2"}},
		Dial:            dial, DisableCompression: true,
	}
	tc, err := cfg.TransportConfig()
	if err != nil {
		t.Fatal(err)
	}
	if tc.UserAgent != "ua" || tc.Username != "u" || tc.Password != "p" || tc.BearerToken != "t" || tc.BearerTokenFile != "/tok" ||
		tc.Impersonate.UserName != "imp" || tc.Impersonate.UID != "42" || len(tc.Impersonate.Groups) != 1 || tc.Impersonate.Extra["x"][0] != "y" ||
		!tc.TLS.Insecure || tc.TLS.ServerName != "sn" || tc.TLS.CAFile != "caf" || string(tc.TLS.CAData) != "ca" ||
		tc.TLS.CertFile != "cf" || string(tc.TLS.CertData) != "c" || tc.TLS.KeyFile != "kf" || string(tc.TLS.KeyData) != "k" ||
		tc.TLS.NextProtos[0] != "h2" || !tc.DisableCompression || tc.DialHolder == nil || tc.DialHolder.Dial == nil {
		t.Errorf("transport config lost settings: %#v", tc)
	}
}

func TestRESTClientForConfigAndClientSharesHTTPClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	defer srv.Close()
	var mu sync.Mutex
	var paths []string
	shared := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})}
	core, err := RESTClientForConfigAndClient(coreV1Config(srv.URL), shared)
	if err != nil {
		t.Fatal(err)
	}
	appsCfg := coreV1Config(srv.URL)
	appsCfg.APIPath = "/apis"
	appsCfg.GroupVersion = &schema.GroupVersion{Group: "apps", Version: "v1"}
	apps, err := RESTClientForConfigAndClient(appsCfg, shared)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_ = core.Get().Resource("pods").Do(ctx)
	_ = apps.Get().Resource("deployments").Do(ctx)
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(paths, ",") != "/api/v1/pods,/apis/apps/v1/deployments" {
		t.Errorf("shared client saw %v", paths)
	}
	if core.Client != shared || apps.Client != shared {
		t.Error("clients do not use the shared HTTP client")
	}
}
