package exec

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
	"github.com/kubeclient/client-go/tools/clientcmd/api"
	"github.com/kubeclient/client-go/transport"
)

const (
	v1APIVersion      = "client.authentication.k8s.io/v1"
	v1beta1APIVersion = "client.authentication.k8s.io/v1beta1"
)

var fakeNow = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

// pluginConfig returns an exec config that runs this test binary as a
// plugin in the given mode.
func pluginConfig(t *testing.T, mode, apiVersion string, env ...api.ExecEnvVar) *api.ExecConfig {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &api.ExecConfig{
		Command:    self,
		APIVersion: apiVersion,
		Env: append([]api.ExecEnvVar{
			{Name: pluginModeEnv, Value: mode},
			// Under -race the plugin process would otherwise linger for a
			// second at exit.
			{Name: "GORACE", Value: "atexit_sleep_ms=0"},
		}, env...),
		InteractiveMode: api.NeverExecInteractiveMode,
	}
}

// newTestAuthenticator builds an Authenticator outside the global cache with
// a fake clock and captured standard error.
func newTestAuthenticator(t *testing.T, config *api.ExecConfig, cluster *clientauthentication.Cluster) (*Authenticator, *clocktesting.FakeClock, *bytes.Buffer) {
	t.Helper()
	a, err := newAuthenticator(&authenticatorCache{byKey: map[string]*Authenticator{}}, func(int) bool { return false }, config, cluster)
	if err != nil {
		t.Fatalf("newAuthenticator: %v", err)
	}
	clk := clocktesting.NewFakeClock(fakeNow)
	var stderr bytes.Buffer
	a.clock = clk
	a.stderr = &stderr
	return a, clk, &stderr
}

func counterEnv(t *testing.T) (api.ExecEnvVar, string) {
	path := filepath.Join(t.TempDir(), "counter")
	return api.ExecEnvVar{Name: "PLUGIN_COUNTER", Value: path}, path
}

func TestTokenIsCachedUntilExpiry(t *testing.T) {
	for _, version := range []string{v1APIVersion, v1beta1APIVersion} {
		t.Run(version, func(t *testing.T) {
			counter, counterPath := counterEnv(t)
			expiry := api.ExecEnvVar{Name: "PLUGIN_EXPIRY", Value: fakeNow.Add(time.Hour).Format(time.RFC3339)}
			a, clk, _ := newTestAuthenticator(t, pluginConfig(t, "token", version, counter, expiry), nil)

			steps := []struct {
				advance   time.Duration
				wantToken string
				wantRuns  int
			}{
				{0, "token-1", 1},
				{30 * time.Minute, "token-1", 1}, // still valid: cached
				{29 * time.Minute, "token-1", 1},
				{2 * time.Minute, "token-2", 2}, // past expiry: plugin runs again
			}
			for i, s := range steps {
				clk.Step(s.advance)
				creds, err := a.getCreds(context.Background())
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if creds.token != s.wantToken {
					t.Errorf("step %d: token %q, want %q", i, creds.token, s.wantToken)
				}
				if got := readCounter(t, counterPath); got != s.wantRuns {
					t.Errorf("step %d: plugin ran %d times, want %d", i, got, s.wantRuns)
				}
			}
		})
	}
}

func TestTokenWithoutExpiryIsCachedForever(t *testing.T) {
	counter, counterPath := counterEnv(t)
	a, clk, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion, counter), nil)
	for i := 0; i < 3; i++ {
		if _, err := a.getCreds(context.Background()); err != nil {
			t.Fatal(err)
		}
		clk.Step(24 * time.Hour)
	}
	if got := readCounter(t, counterPath); got != 1 {
		t.Errorf("plugin ran %d times, want 1", got)
	}
}

// apiServer answers like kube-apiserver: 401 with a metav1.Status for
// tokens it does not accept, a namespace list otherwise.
func apiServer(t *testing.T, accept func(token string) bool, seen *[]string, mu *sync.Mutex) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		mu.Lock()
		*seen = append(*seen, token)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if !accept(token) {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(&metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
				Status:   metav1.StatusFailure, Message: "Unauthorized", Reason: metav1.StatusReasonUnauthorized, Code: 401,
			})
			return
		}
		fmt.Fprint(w, `{"kind":"NamespaceList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`)
	}))
}

func TestUnauthorizedTriggersRefresh(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	// The server only accepts the second token the plugin hands out.
	srv := apiServer(t, func(tok string) bool { return tok == "token-2" }, &seen, &mu)
	defer srv.Close()

	counter, counterPath := counterEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion, counter), nil)
	cfg := &transport.Config{}
	if err := a.UpdateTransportConfig(cfg); err != nil {
		t.Fatal(err)
	}
	rt, err := transport.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: rt}

	wantCodes := []int{http.StatusUnauthorized, http.StatusOK, http.StatusOK}
	for i, want := range wantCodes {
		resp, err := client.Get(srv.URL + "/api/v1/namespaces")
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("request %d: status %d, want %d", i, resp.StatusCode, want)
		}
	}
	if got, want := strings.Join(seen, ","), "token-1,token-2,token-2"; got != want {
		t.Errorf("server saw tokens %s, want %s", got, want)
	}
	if got := readCounter(t, counterPath); got != 2 {
		t.Errorf("plugin ran %d times, want 2", got)
	}
}

func TestConcurrentUnauthorizedRefreshesOnce(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	srv := apiServer(t, func(tok string) bool { return tok != "token-1" }, &seen, &mu)
	defer srv.Close()

	counter, counterPath := counterEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion, counter), nil)
	// Fetch token-1 first so that every request below uses it.
	if _, err := a.getCreds(context.Background()); err != nil {
		t.Fatal(err)
	}
	rt := &roundTripper{a: a, base: http.DefaultTransport}
	var wg sync.WaitGroup
	var failures atomic.Int32
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			resp, err := rt.RoundTrip(req)
			if err != nil {
				failures.Add(1)
				return
			}
			resp.Body.Close()
		}()
	}
	wg.Wait()
	if failures.Load() != 0 {
		t.Fatalf("%d requests failed", failures.Load())
	}
	// Requests that failed with token-1 refresh only while token-1 is
	// cached, so however they interleave the plugin runs exactly twice.
	if got := readCounter(t, counterPath); got != 2 {
		t.Errorf("plugin ran %d times, want 2", got)
	}
}

func TestRequestWithAuthorizationIsLeftAlone(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	srv := apiServer(t, func(string) bool { return true }, &seen, &mu)
	defer srv.Close()
	counter, counterPath := counterEnv(t)
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion, counter), nil)
	rt := &roundTripper{a: a, base: http.DefaultTransport}
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Authorization", "Bearer mine")
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if seen[0] != "mine" {
		t.Errorf("server saw %q, want the caller's token", seen[0])
	}
	if got := readCounter(t, counterPath); got != 0 {
		t.Errorf("plugin ran %d times, want 0", got)
	}
}

func TestPluginErrors(t *testing.T) {
	tests := []struct {
		name    string
		config  func(t *testing.T) *api.ExecConfig
		want    []string
		notWant []string
	}{
		{
			name: "missing binary shows install hint",
			config: func(t *testing.T) *api.ExecConfig {
				return &api.ExecConfig{
					Command:         filepath.Join(t.TempDir(), "no-such-plugin"),
					APIVersion:      v1APIVersion,
					InstallHint:     "brew install no-such-plugin",
					InteractiveMode: api.NeverExecInteractiveMode,
				}
			},
			want: []string{"no-such-plugin not found", "brew install no-such-plugin", "client-go credential plugin that is not installed"},
		},
		{
			name: "missing binary on PATH",
			config: func(t *testing.T) *api.ExecConfig {
				return &api.ExecConfig{Command: "kubeclient-test-plugin-that-does-not-exist", APIVersion: v1APIVersion, InstallHint: "see the docs", InteractiveMode: api.NeverExecInteractiveMode}
			},
			want: []string{"executable kubeclient-test-plugin-that-does-not-exist not found", "see the docs"},
		},
		{
			name:   "non-zero exit includes stderr",
			config: func(t *testing.T) *api.ExecConfig { return pluginConfig(t, "fail", v1APIVersion) },
			want:   []string{"failed with exit code 3", "you must log in first"},
		},
		{
			name:   "garbage output",
			config: func(t *testing.T) *api.ExecConfig { return pluginConfig(t, "garbage", v1APIVersion) },
			want:   []string{"decoding stdout"},
		},
		{
			name:   "no output",
			config: func(t *testing.T) *api.ExecConfig { return pluginConfig(t, "empty", v1APIVersion) },
			want:   []string{"printed nothing on standard output", "client.authentication.k8s.io/v1"},
		},
		{
			name: "wrong apiVersion in reply",
			config: func(t *testing.T) *api.ExecConfig {
				return pluginConfig(t, "token", v1beta1APIVersion, api.ExecEnvVar{Name: "PLUGIN_VERSION", Value: v1APIVersion})
			},
			want: []string{"configured to use API version client.authentication.k8s.io/v1beta1, plugin returned version client.authentication.k8s.io/v1"},
		},
		{
			name:   "no status",
			config: func(t *testing.T) *api.ExecConfig { return pluginConfig(t, "nostatus", v1APIVersion) },
			want:   []string{"didn't return a status field"},
		},
		{
			name:   "empty status",
			config: func(t *testing.T) *api.ExecConfig { return pluginConfig(t, "emptystatus", v1APIVersion) },
			want:   []string{"didn't return a token or cert/key pair"},
		},
		{
			name: "certificate without key",
			config: func(t *testing.T) *api.ExecConfig {
				return pluginConfig(t, "certonly", v1APIVersion, api.ExecEnvVar{Name: "PLUGIN_CERTS", Value: newTestPKI(t, 1).dir})
			},
			want: []string{"only certificate or key, not both"},
		},
		{
			name: "v1 without interactive mode",
			config: func(t *testing.T) *api.ExecConfig {
				c := pluginConfig(t, "token", v1APIVersion)
				c.InteractiveMode = ""
				return c
			},
			want: []string{`unknown interactiveMode: ""`},
		},
		{
			name: "always interactive without a terminal",
			config: func(t *testing.T) *api.ExecConfig {
				c := pluginConfig(t, "token", v1APIVersion)
				c.InteractiveMode = api.AlwaysExecInteractiveMode
				return c
			},
			want: []string{"cannot support interactive mode", "standard input is not a terminal"},
		},
		{
			name: "deny-all policy",
			config: func(t *testing.T) *api.ExecConfig {
				c := pluginConfig(t, "token", v1APIVersion)
				c.PluginPolicy = api.PluginPolicy{PolicyType: api.PluginPolicyDenyAll}
				return c
			},
			want: []string{"not allowed", "DenyAll"},
		},
		{
			name: "allowlist without the plugin",
			config: func(t *testing.T) *api.ExecConfig {
				c := pluginConfig(t, "token", v1APIVersion)
				c.PluginPolicy = api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist, Allowlist: []api.AllowlistEntry{{Command: "/usr/bin/something-else"}}}
				return c
			},
			want: []string{"not permitted by the credential plugin allowlist"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, _ := newTestAuthenticator(t, tt.config(t), nil)
			_, err := a.getCreds(context.Background())
			if err == nil {
				t.Fatal("getCreds succeeded, want error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			// A failed run caches nothing.
			if a.cachedCreds != nil {
				t.Errorf("credentials cached after failure")
			}
		})
	}
}

func TestFailureSurfacesThroughRoundTrip(t *testing.T) {
	a, _, stderr := newTestAuthenticator(t, pluginConfig(t, "fail", v1APIVersion), nil)
	rt := &roundTripper{a: a, base: http.DefaultTransport}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/", nil)
	_, err := rt.RoundTrip(req)
	if err == nil || !strings.Contains(err.Error(), "getting credentials") {
		t.Fatalf("RoundTrip error = %v, want a credentials error", err)
	}
	// The plugin's standard error still reaches the user.
	if !strings.Contains(stderr.String(), "you must log in first") {
		t.Errorf("plugin stderr not forwarded: %q", stderr.String())
	}
}

func TestAllowlistPermitsPlugin(t *testing.T) {
	c := pluginConfig(t, "token", v1APIVersion)
	c.PluginPolicy = api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist, Allowlist: []api.AllowlistEntry{{Command: c.Command}}}
	a, _, _ := newTestAuthenticator(t, c, nil)
	if _, err := a.getCreds(context.Background()); err != nil {
		t.Fatalf("allowlisted plugin refused: %v", err)
	}
}

func TestArgsAndEnvReachThePlugin(t *testing.T) {
	c := pluginConfig(t, "args", v1APIVersion, api.ExecEnvVar{Name: "PLUGIN_EXTRA", Value: "from-env"})
	c.Args = []string{"--cluster", "prod", "--verbose"}
	a, _, _ := newTestAuthenticator(t, c, nil)
	creds, err := a.getCreds(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := "--cluster,prod,--verbose|from-env"; creds.token != want {
		t.Errorf("plugin saw %q, want %q", creds.token, want)
	}
}

func TestExecInfo(t *testing.T) {
	cluster := &clientauthentication.Cluster{
		Server:                   "https://k8s.example.com:6443",
		TLSServerName:            "k8s.internal",
		CertificateAuthorityData: []byte("CA"),
		ProxyURL:                 "socks5://proxy:1080",
		Config:                   &runtime.Unknown{Raw: []byte(`{"audience":"aud-1"}`), ContentType: runtime.ContentTypeJSON},
	}
	tests := []struct {
		version     string
		provideInfo bool
		wantCluster bool
	}{
		{v1APIVersion, true, true},
		{v1beta1APIVersion, true, true},
		{v1APIVersion, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/provide=%t", tt.version, tt.provideInfo), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "info.json")
			c := pluginConfig(t, "token", tt.version, api.ExecEnvVar{Name: "PLUGIN_INFO_OUT", Value: out})
			c.ProvideClusterInfo = tt.provideInfo
			a, _, _ := newTestAuthenticator(t, c, cluster)
			if _, err := a.getCreds(context.Background()); err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var info struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Spec       struct {
					Interactive *bool `json:"interactive"`
					Cluster     *struct {
						Server        string          `json:"server"`
						TLSServerName string          `json:"tls-server-name"`
						CAData        []byte          `json:"certificate-authority-data"`
						ProxyURL      string          `json:"proxy-url"`
						Config        json.RawMessage `json:"config"`
					} `json:"cluster"`
				} `json:"spec"`
			}
			if err := json.Unmarshal(raw, &info); err != nil {
				t.Fatalf("KUBERNETES_EXEC_INFO is not JSON: %v\n%s", err, raw)
			}
			if info.APIVersion != tt.version || info.Kind != "ExecCredential" {
				t.Errorf("apiVersion/kind = %s/%s", info.APIVersion, info.Kind)
			}
			if info.Spec.Interactive == nil || *info.Spec.Interactive {
				t.Errorf("spec.interactive = %v, want false", info.Spec.Interactive)
			}
			if (info.Spec.Cluster != nil) != tt.wantCluster {
				t.Fatalf("spec.cluster present = %t, want %t: %s", info.Spec.Cluster != nil, tt.wantCluster, raw)
			}
			if tt.wantCluster {
				cl := info.Spec.Cluster
				if cl.Server != cluster.Server || cl.TLSServerName != "k8s.internal" || string(cl.CAData) != "CA" || cl.ProxyURL != cluster.ProxyURL {
					t.Errorf("spec.cluster = %+v", cl)
				}
				if string(cl.Config) != `{"audience":"aud-1"}` {
					t.Errorf("spec.cluster.config = %s", cl.Config)
				}
			}
		})
	}
}

func TestInteractiveFor(t *testing.T) {
	tests := []struct {
		mode        api.ExecInteractiveMode
		unavailable bool
		message     string
		terminal    bool
		want        bool
		wantErr     string
	}{
		{mode: api.NeverExecInteractiveMode, terminal: true, want: false},
		{mode: api.IfAvailableExecInteractiveMode, terminal: true, want: true},
		{mode: api.IfAvailableExecInteractiveMode, terminal: false, want: false},
		{mode: api.IfAvailableExecInteractiveMode, terminal: true, unavailable: true, want: false},
		{mode: api.AlwaysExecInteractiveMode, terminal: true, want: true},
		{mode: api.AlwaysExecInteractiveMode, terminal: false, wantErr: "standard input is not a terminal"},
		{mode: api.AlwaysExecInteractiveMode, terminal: true, unavailable: true, wantErr: "standard input is unavailable"},
		{mode: api.AlwaysExecInteractiveMode, terminal: true, unavailable: true, message: "used by kubectl apply -f -", wantErr: "standard input is unavailable: used by kubectl apply -f -"},
		{mode: "Sometimes", terminal: true, wantErr: `unknown interactiveMode: "Sometimes"`},
	}
	for _, tt := range tests {
		got, err := interactiveFor(tt.mode, tt.unavailable, tt.message, func() bool { return tt.terminal })
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%+v: error %v, want %q", tt, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%+v: got %t, %v; want %t", tt, got, err, tt.want)
		}
	}
}

func TestValidatePluginPolicy(t *testing.T) {
	tests := []struct {
		name    string
		policy  api.PluginPolicy
		wantErr string
	}{
		{name: "empty", policy: api.PluginPolicy{}},
		{name: "allow all", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowAll}},
		{name: "deny all", policy: api.PluginPolicy{PolicyType: api.PluginPolicyDenyAll}},
		{name: "allowlist", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist, Allowlist: []api.AllowlistEntry{{Command: "/bin/tool"}, {Command: "tool2"}}}},
		{name: "allow all with list", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowAll, Allowlist: []api.AllowlistEntry{}}, wantErr: "allowlist is non-nil"},
		{name: "nil allowlist", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist}, wantErr: "allowlist is unspecified"},
		{name: "empty allowlist", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist, Allowlist: []api.AllowlistEntry{}}, wantErr: "allowlist is empty"},
		{name: "empty entry", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist, Allowlist: []api.AllowlistEntry{{Command: "a"}, {}}}, wantErr: "empty allowlist entry #2"},
		{name: "unclean path", policy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist, Allowlist: []api.AllowlistEntry{{Command: "/bin/../bin/tool"}}}, wantErr: "non-normalized file path"},
		{name: "unknown", policy: api.PluginPolicy{PolicyType: "Maybe"}, wantErr: `unknown plugin policy: "Maybe"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidatePluginPolicy(tt.policy)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestGetAuthenticatorValidation(t *testing.T) {
	for _, c := range []*api.ExecConfig{
		{Command: "x", APIVersion: "client.authentication.k8s.io/v1alpha1"},
		{Command: "x", APIVersion: ""},
		{Command: "x", APIVersion: v1APIVersion, PluginPolicy: api.PluginPolicy{PolicyType: api.PluginPolicyAllowlist}},
	} {
		if _, err := GetAuthenticator(c, nil); err == nil {
			t.Errorf("GetAuthenticator(%v) succeeded, want error", c)
		}
	}
}

func TestGetAuthenticatorSharesInstances(t *testing.T) {
	base := func() *api.ExecConfig {
		return &api.ExecConfig{Command: "plugin", Args: []string{"a"}, APIVersion: v1APIVersion, InteractiveMode: api.NeverExecInteractiveMode}
	}
	cluster := &clientauthentication.Cluster{Server: "https://a"}
	a1, err := GetAuthenticator(base(), cluster)
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := GetAuthenticator(base(), &clientauthentication.Cluster{Server: "https://a"})
	if a1 != a2 {
		t.Errorf("identical configs got different Authenticators")
	}
	other := base()
	other.Args = []string{"b"}
	a3, _ := GetAuthenticator(other, cluster)
	a4, _ := GetAuthenticator(base(), &clientauthentication.Cluster{Server: "https://b"})
	if a3 == a1 || a4 == a1 {
		t.Errorf("different configs share an Authenticator")
	}
}

func TestUpdateTransportConfig(t *testing.T) {
	a, _, _ := newTestAuthenticator(t, pluginConfig(t, "token", v1APIVersion), nil)

	t.Run("existing credentials win", func(t *testing.T) {
		for _, c := range []*transport.Config{
			{BearerToken: "t"},
			{Username: "u", Password: "p"},
			{TLS: transport.TLSConfig{CertData: []byte("c"), KeyData: []byte("k")}},
		} {
			if err := a.UpdateTransportConfig(c); err != nil {
				t.Fatal(err)
			}
			if c.WrapTransport != nil || c.TLS.GetCertHolder != nil || c.DialHolder != nil {
				t.Errorf("config with credentials was changed: %+v", c)
			}
		}
	})
	t.Run("hooks installed", func(t *testing.T) {
		c := &transport.Config{}
		if err := a.UpdateTransportConfig(c); err != nil {
			t.Fatal(err)
		}
		if c.WrapTransport == nil || c.TLS.GetCertHolder != a.getCert || c.DialHolder != a.dial {
			t.Errorf("hooks not installed: %+v", c)
		}
		// A second config gets the same holders, so the two stay equal for
		// the transport cache.
		c2 := &transport.Config{}
		_ = a.UpdateTransportConfig(c2)
		if c2.TLS.GetCertHolder != c.TLS.GetCertHolder || c2.DialHolder != c.DialHolder {
			t.Errorf("holders differ between configs")
		}
	})
	t.Run("custom dialer is tracked", func(t *testing.T) {
		dialed := false
		orig := &transport.DialHolder{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed = true
			return nil, fmt.Errorf("no network in this test")
		}}
		c := &transport.Config{DialHolder: orig}
		if err := a.UpdateTransportConfig(c); err != nil {
			t.Fatal(err)
		}
		if c.DialHolder == orig || c.DialHolder == a.dial {
			t.Fatalf("custom dialer not wrapped")
		}
		_, _ = c.DialHolder.Dial(context.Background(), "tcp", "example:1")
		if !dialed {
			t.Errorf("wrapped dialer did not call the original")
		}
	})
	t.Run("errors", func(t *testing.T) {
		c := &transport.Config{TLS: transport.TLSConfig{GetCertHolder: &transport.GetCertHolder{GetCert: func() (*tls.Certificate, error) { return nil, nil }}}}
		if err := a.UpdateTransportConfig(c); err == nil || !strings.Contains(err.Error(), "GetCert already set") {
			t.Errorf("error = %v, want GetCert conflict", err)
		}
		c = &transport.Config{DialHolder: &transport.DialHolder{}}
		if err := a.UpdateTransportConfig(c); err == nil || !strings.Contains(err.Error(), "Dial function is nil") {
			t.Errorf("error = %v, want nil Dial error", err)
		}
	})
}

func TestClientCertificateRotationClosesConnections(t *testing.T) {
	pki := newTestPKI(t, 2)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pki.caPEM)

	type hit struct{ cn, remote string }
	var (
		mu   sync.Mutex
		hits []hit
	)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cn := ""
		if len(r.TLS.PeerCertificates) > 0 {
			cn = r.TLS.PeerCertificates[0].Subject.CommonName
		}
		mu.Lock()
		hits = append(hits, hit{cn, r.RemoteAddr})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Success"}`)
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.StartTLS()
	defer srv.Close()
	serverCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})

	counter, counterPath := counterEnv(t)
	expiry := api.ExecEnvVar{Name: "PLUGIN_EXPIRY", Value: fakeNow.Add(time.Minute).Format(time.RFC3339) + "," + fakeNow.Add(time.Hour).Format(time.RFC3339)}
	a, clk, _ := newTestAuthenticator(t, pluginConfig(t, "cert", v1APIVersion, counter, expiry,
		api.ExecEnvVar{Name: "PLUGIN_CERTS", Value: pki.dir}), nil)

	cfg := &transport.Config{TLS: transport.TLSConfig{CAData: serverCA}}
	if err := a.UpdateTransportConfig(cfg); err != nil {
		t.Fatal(err)
	}
	rt, err := transport.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: rt}
	get := func() {
		t.Helper()
		resp, err := client.Get(srv.URL + "/version")
		if err != nil {
			t.Fatal(err)
		}
		// Drain the body so the connection can be reused.
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	get()
	get()                     // same certificate, kept-alive connection
	clk.Step(2 * time.Minute) // certificate expired: plugin runs again
	get()

	if got := readCounter(t, counterPath); got != 2 {
		t.Errorf("plugin ran %d times, want 2", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 3 {
		t.Fatalf("server saw %d requests, want 3", len(hits))
	}
	if hits[0].cn != "client-1" || hits[1].cn != "client-1" || hits[2].cn != "client-2" {
		t.Errorf("client certificates seen: %+v", hits)
	}
	if hits[0].remote != hits[1].remote {
		t.Errorf("connection not reused before rotation: %+v", hits)
	}
	if hits[2].remote == hits[1].remote {
		t.Errorf("connection with the old certificate was reused after rotation: %+v", hits)
	}
}

func TestExpiryTracker(t *testing.T) {
	var published []*time.Time
	tr := &expiryTracker{byAuth: map[*Authenticator]time.Time{}, publish: func(t *time.Time) { published = append(published, t) }}
	a1, a2 := &Authenticator{}, &Authenticator{}
	t1, t2 := fakeNow.Add(time.Hour), fakeNow.Add(2*time.Hour)
	tr.set(a1, t2)
	tr.set(a2, t1)
	tr.set(a2, time.Time{})
	tr.set(a1, time.Time{})
	want := []*time.Time{&t2, &t1, &t2, nil}
	for i := range want {
		switch {
		case (want[i] == nil) != (published[i] == nil):
			t.Errorf("publish %d = %v, want %v", i, published[i], want[i])
		case want[i] != nil && !want[i].Equal(*published[i]):
			t.Errorf("publish %d = %v, want %v", i, *published[i], *want[i])
		}
	}
}

func TestPrefixBuffer(t *testing.T) {
	p := &prefixBuffer{limit: 5}
	p.Write([]byte("abc"))
	p.Write([]byte("defgh"))
	p.Write([]byte("ij"))
	if got, want := p.String(), "abcde ... (5 more bytes)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
