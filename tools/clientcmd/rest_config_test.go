package clientcmd

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// singleContextConfig returns a config whose current context "ctx" points at
// cluster "c" and user "u".
func singleContextConfig(cluster *clientcmdapi.Cluster, user *clientcmdapi.AuthInfo) clientcmdapi.Config {
	config := clientcmdapi.NewConfig()
	config.Clusters["c"] = cluster
	config.AuthInfos["u"] = user
	config.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	config.CurrentContext = "ctx"
	return *config
}

func TestRESTConfigFromKubeConfig(t *testing.T) {
	dir := t.TempDir()
	tokenFile := writeFile(t, dir, "token", "file-token")

	tests := []struct {
		name  string
		yaml  string
		check func(t *testing.T, c *restclient.Config)
	}{{
		name: "token, CA data and TLS server name",
		yaml: `apiVersion: v1
kind: Config
current-context: ctx
clusters:
- name: c
  cluster:
    server: https://k8s.example:6443
    certificate-authority-data: Q0EtREFUQQ==
    tls-server-name: api.internal
    disable-compression: true
users:
- name: u
  user:
    token: bearer-1
contexts:
- name: ctx
  context: {cluster: c, user: u}
`,
		check: func(t *testing.T, c *restclient.Config) {
			if c.Host != "https://k8s.example:6443" || c.BearerToken != "bearer-1" || string(c.CAData) != "CA-DATA" ||
				c.ServerName != "api.internal" || !c.DisableCompression || c.Insecure {
				t.Errorf("got %+v", c)
			}
		},
	}, {
		name: "token file, insecure, proxy",
		yaml: `apiVersion: v1
kind: Config
current-context: ctx
clusters:
- name: c
  cluster:
    server: https://k8s.example
    insecure-skip-tls-verify: true
    proxy-url: http://proxy.example:3128
users:
- name: u
  user:
    tokenFile: ` + tokenFile + `
contexts:
- name: ctx
  context: {cluster: c, user: u}
`,
		check: func(t *testing.T, c *restclient.Config) {
			if c.BearerToken != "file-token" || c.BearerTokenFile != tokenFile || !c.Insecure {
				t.Errorf("got %+v", c)
			}
			if c.Proxy == nil {
				t.Fatal("proxy not set")
			}
			req, _ := http.NewRequest("GET", "https://k8s.example/api", nil)
			u, err := c.Proxy(req)
			if err != nil || u.String() != "http://proxy.example:3128" {
				t.Errorf("proxy = %v, %v", u, err)
			}
		},
	}, {
		name: "basic auth, client cert data, impersonation",
		yaml: `apiVersion: v1
kind: Config
current-context: ctx
clusters:
- name: c
  cluster:
    server: https://k8s.example
users:
- name: u
  user:
    username: admin
    password: hunter2
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
    as: alice
    as-uid: uid-1
    as-groups: [devs, ops]
    as-user-extra:
      scope: [read]
contexts:
- name: ctx
  context: {cluster: c, user: u}
`,
		check: func(t *testing.T, c *restclient.Config) {
			if c.Username != "admin" || c.Password != "hunter2" || string(c.CertData) != "CERT" || string(c.KeyData) != "KEY" {
				t.Errorf("credentials: %+v", c)
			}
			want := restclient.ImpersonationConfig{UserName: "alice", UID: "uid-1", Groups: []string{"devs", "ops"}, Extra: map[string][]string{"scope": {"read"}}}
			if !reflect.DeepEqual(c.Impersonate, want) {
				t.Errorf("impersonation = %+v, want %+v", c.Impersonate, want)
			}
		},
	}, {
		name: "plain http ignores credentials but keeps impersonation",
		yaml: `apiVersion: v1
kind: Config
current-context: ctx
clusters:
- name: c
  cluster:
    server: http://insecure.example:8080/prefix?q=1#frag
users:
- name: u
  user:
    token: secret
    as: bob
contexts:
- name: ctx
  context: {cluster: c, user: u}
`,
		check: func(t *testing.T, c *restclient.Config) {
			if c.BearerToken != "" {
				t.Errorf("token sent over plain http: %+v", c)
			}
			if c.Host != "http://insecure.example:8080/prefix" {
				t.Errorf("host = %q, want query and fragment dropped", c.Host)
			}
			if c.Impersonate.UserName != "bob" {
				t.Errorf("impersonation lost: %+v", c.Impersonate)
			}
		},
	}, {
		name: "exec plugin with cluster info",
		yaml: `apiVersion: v1
kind: Config
current-context: ctx
clusters:
- name: c
  cluster:
    server: https://k8s.example
    extensions:
    - name: client.authentication.k8s.io/exec
      extension:
        audience: k8s
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: /usr/bin/get-token
      args: [--flag]
      env:
      - name: FOO
        value: bar
      provideClusterInfo: true
      interactiveMode: Never
      installHint: "install \x1b[1mit\x1b[0m"
contexts:
- name: ctx
  context: {cluster: c, user: u}
`,
		check: func(t *testing.T, c *restclient.Config) {
			e := c.ExecProvider
			if e == nil {
				t.Fatal("no exec provider")
			}
			if e.Command != "/usr/bin/get-token" || !reflect.DeepEqual(e.Args, []string{"--flag"}) || !e.ProvideClusterInfo ||
				e.InteractiveMode != clientcmdapi.NeverExecInteractiveMode || len(e.Env) != 1 || e.Env[0].Value != "bar" {
				t.Errorf("exec = %+v", e)
			}
			if strings.ContainsRune(e.InstallHint, 0x1b) || !strings.Contains(e.InstallHint, "U+001B") {
				t.Errorf("install hint not cleaned: %q", e.InstallHint)
			}
			raw, ok := e.Config.(*runtime.Unknown)
			if !ok || !strings.Contains(string(raw.Raw), "audience") {
				t.Errorf("exec cluster config = %#v", e.Config)
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := RESTConfigFromKubeConfig([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestRESTConfigFromKubeConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"malformed", "clusters: [", "yaml"},
		{"empty", "", "no configuration has been provided"},
		{"unknown current context", kubeconfigYAML("nope", []string{"c:server=https://x"}, []string{"u:token=t"}, []string{"ctx:cluster=c;user=u"}),
			"context was not found for specified context: nope"},
		{"missing CA file", kubeconfigYAML("ctx", []string{"c:server=https://x;certificate-authority=/nonexistent/ca.crt"}, []string{"u:token=t"}, []string{"ctx:cluster=c;user=u"}),
			`unable to read certificate-authority /nonexistent/ca.crt for c`},
		{"bad proxy", kubeconfigYAML("ctx", []string{"c:server=https://x;proxy-url=ftp://p"}, []string{"u:token=t"}, []string{"ctx:cluster=c;user=u"}),
			`invalid 'proxy-url' "ftp://p" for cluster "c"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RESTConfigFromKubeConfig([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestOverridesPrecedence(t *testing.T) {
	dir := t.TempDir()
	caFile := writeFile(t, dir, "ca.crt", "ca")
	base := func() clientcmdapi.Config {
		config := singleContextConfig(
			&clientcmdapi.Cluster{Server: "https://from-file", CertificateAuthorityData: []byte("file-ca"), TLSServerName: "file-sni"},
			&clientcmdapi.AuthInfo{Token: "file-token", ClientCertificateData: []byte("file-cert"), ClientKeyData: []byte("file-key")})
		config.Clusters["other"] = &clientcmdapi.Cluster{Server: "https://other"}
		config.AuthInfos["other-user"] = &clientcmdapi.AuthInfo{Username: "o", Password: "p"}
		config.Contexts["other-ctx"] = &clientcmdapi.Context{Cluster: "other", AuthInfo: "other-user", Namespace: "other-ns"}
		return config
	}

	tests := []struct {
		name      string
		overrides ConfigOverrides
		check     func(t *testing.T, c *restclient.Config)
	}{{
		name:      "server override clears tls-server-name",
		overrides: ConfigOverrides{ClusterInfo: clientcmdapi.Cluster{Server: "https://flag"}},
		check: func(t *testing.T, c *restclient.Config) {
			if c.Host != "https://flag" || c.ServerName != "" || string(c.CAData) != "file-ca" {
				t.Errorf("got %+v", c)
			}
		},
	}, {
		name:      "insecure override drops the file's CA",
		overrides: ConfigOverrides{ClusterInfo: clientcmdapi.Cluster{InsecureSkipTLSVerify: true}},
		check: func(t *testing.T, c *restclient.Config) {
			if !c.Insecure || len(c.CAData) != 0 || c.CAFile != "" {
				t.Errorf("got insecure=%v CAData=%q CAFile=%q", c.Insecure, c.CAData, c.CAFile)
			}
		},
	}, {
		name:      "CA file override replaces CA data",
		overrides: ConfigOverrides{ClusterInfo: clientcmdapi.Cluster{CertificateAuthority: caFile}},
		check: func(t *testing.T, c *restclient.Config) {
			if c.CAFile != caFile || len(c.CAData) != 0 {
				t.Errorf("got CAFile=%q CAData=%q", c.CAFile, c.CAData)
			}
		},
	}, {
		name:      "cluster defaults lose to the file",
		overrides: ConfigOverrides{ClusterDefaults: clientcmdapi.Cluster{Server: "https://default", ProxyURL: "http://default-proxy"}},
		check: func(t *testing.T, c *restclient.Config) {
			if c.Host != "https://from-file" || c.Proxy == nil {
				t.Errorf("got host %q proxy set %v", c.Host, c.Proxy != nil)
			}
		},
	}, {
		name: "auth overrides",
		overrides: ConfigOverrides{AuthInfo: clientcmdapi.AuthInfo{
			Token: "flag-token", Impersonate: "carol", ImpersonateGroups: []string{"g"},
			ClientCertificate: filepath.Join(dir, "c.crt"), ClientKey: filepath.Join(dir, "c.key"),
		}},
		check: func(t *testing.T, c *restclient.Config) {
			if c.BearerToken != "flag-token" || c.Impersonate.UserName != "carol" || !reflect.DeepEqual(c.Impersonate.Groups, []string{"g"}) {
				t.Errorf("got %+v", c)
			}
			if len(c.CertData) != 0 || len(c.KeyData) != 0 || c.CertFile == "" || c.KeyFile == "" {
				t.Errorf("cert/key override must replace file data: %+v", c.TLSClientConfig)
			}
		},
	}, {
		name:      "context and timeout overrides",
		overrides: ConfigOverrides{CurrentContext: "other-ctx", Timeout: "45"},
		check: func(t *testing.T, c *restclient.Config) {
			if c.Host != "https://other" || c.Username != "o" || c.Timeout != 45*time.Second {
				t.Errorf("got host %q user %q timeout %v", c.Host, c.Username, c.Timeout)
			}
		},
	}, {
		name:      "cluster and user name overrides",
		overrides: ConfigOverrides{Context: clientcmdapi.Context{Cluster: "other", AuthInfo: "other-user"}},
		check: func(t *testing.T, c *restclient.Config) {
			if c.Host != "https://other" || c.Username != "o" || c.BearerToken != "" {
				t.Errorf("got %+v", c)
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "auth overrides" {
				writeFile(t, dir, "c.crt", "c")
				writeFile(t, dir, "c.key", "k")
			}
			overrides := tt.overrides
			c, err := NewDefaultClientConfig(base(), &overrides).ClientConfig()
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestOverrideNamesMustExist(t *testing.T) {
	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
	tests := []struct {
		overrides ConfigOverrides
		want      string
	}{
		{ConfigOverrides{CurrentContext: "ghost"}, `context "ghost" does not exist`},
		{ConfigOverrides{Context: clientcmdapi.Context{AuthInfo: "ghost"}}, `auth info "ghost" does not exist`},
		{ConfigOverrides{Context: clientcmdapi.Context{Cluster: "ghost"}}, `cluster "ghost" does not exist`},
		{ConfigOverrides{Timeout: "soon"}, "Invalid timeout value"},
	}
	for _, tt := range tests {
		overrides := tt.overrides
		_, err := NewDefaultClientConfig(config, &overrides).ClientConfig()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("overrides %+v: error %v, want %q", tt.overrides, err, tt.want)
		}
	}
}

func TestNamespace(t *testing.T) {
	withNS := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
	withNS.Contexts["ctx"].Namespace = "team-a"
	noNS := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})

	tests := []struct {
		name           string
		config         clientcmdapi.Config
		overrides      *ConfigOverrides
		want           string
		wantOverridden bool
		wantErr        bool
	}{
		{"from context", withNS, nil, "team-a", false, false},
		{"default", noNS, nil, "default", false, false},
		{"override", withNS, &ConfigOverrides{Context: clientcmdapi.Context{Namespace: "flag-ns"}}, "flag-ns", true, false},
		{"override on empty config", *clientcmdapi.NewConfig(), &ConfigOverrides{Context: clientcmdapi.Context{Namespace: "flag-ns"}}, "flag-ns", true, false},
		{"empty config", *clientcmdapi.NewConfig(), nil, "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns, overridden, err := NewDefaultClientConfig(tt.config, tt.overrides).Namespace()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if ns != tt.want || overridden != tt.wantOverridden {
				t.Errorf("Namespace() = %q, %v; want %q, %v", ns, overridden, tt.want, tt.wantOverridden)
			}
		})
	}
	_, _, err := NewDefaultClientConfig(*clientcmdapi.NewConfig(), nil).Namespace()
	if !IsEmptyConfig(err) {
		t.Errorf("empty config namespace error %v must be IsEmptyConfig", err)
	}
}

func TestMergedRawConfig(t *testing.T) {
	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://file"}, &clientcmdapi.AuthInfo{Token: "file"})
	overrides := &ConfigOverrides{
		ClusterInfo: clientcmdapi.Cluster{Server: "https://flag"},
		AuthInfo:    clientcmdapi.AuthInfo{Token: "flag"},
		Context:     clientcmdapi.Context{Namespace: "flag-ns"},
	}
	cc := NewNonInteractiveClientConfig(config, "ctx", overrides, nil)
	merged, err := cc.MergedRawConfig()
	if err != nil {
		t.Fatal(err)
	}
	if merged.Clusters["c"].Server != "https://flag" || merged.AuthInfos["u"].Token != "flag" || merged.Contexts["ctx"].Namespace != "flag-ns" || merged.CurrentContext != "ctx" {
		t.Errorf("merged = %+v", merged)
	}
	raw, _ := cc.RawConfig()
	if raw.Clusters["c"].Server != "https://file" {
		t.Errorf("MergedRawConfig modified the raw config")
	}
	if cc.ConfigAccess() != nil {
		t.Errorf("ConfigAccess should be the nil one given")
	}
}

func TestAuthProviderPersister(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "config", `apiVersion: v1
kind: Config
current-context: ctx
clusters:
- name: c
  cluster: {server: "https://x"}
users:
- name: u
  user:
    auth-provider:
      name: oidc
      config:
        id-token: old
contexts:
- name: ctx
  context: {cluster: c, user: u}
`)
	rules := &ClientConfigLoadingRules{ExplicitPath: path}
	c, err := NewNonInteractiveDeferredLoadingClientConfig(rules, &ConfigOverrides{}).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c.AuthProvider == nil || c.AuthProvider.Name != "oidc" || c.AuthProvider.Config["id-token"] != "old" {
		t.Fatalf("auth provider = %+v", c.AuthProvider)
	}
	if c.AuthConfigPersister == nil {
		t.Fatal("no persister")
	}
	if err := c.AuthConfigPersister.Persist(map[string]string{"id-token": "new", "refresh-token": "r"}); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.AuthInfos["u"].AuthProvider.Config; got["id-token"] != "new" || got["refresh-token"] != "r" {
		t.Errorf("persisted config = %v", got)
	}
	if _, err := os.Stat(path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}

	// A user without an auth-provider is left alone.
	if err := PersisterForUser(rules, "nobody").Persist(map[string]string{"a": "b"}); err != nil {
		t.Errorf("persist for unknown user: %v", err)
	}
}

func TestInteractivePromptUsesReader(t *testing.T) {
	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{})
	cc := NewInteractiveClientConfig(config, "", nil, strings.NewReader("alice\n"), nil)
	_, err := cc.ClientConfig()
	// The username comes from the reader; the password needs a terminal,
	// which tests do not have.
	if err == nil || !strings.Contains(err.Error(), "error reading input for Password") {
		t.Fatalf("err = %v", err)
	}

	// With credentials in the config nothing is prompted.
	config = singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
	c, err := NewInteractiveClientConfig(config, "", nil, strings.NewReader(""), nil).ClientConfig()
	if err != nil || c.BearerToken != "t" {
		t.Fatalf("got %+v, %v", c, err)
	}

	// Remembered credentials are reused without prompting.
	config = singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{})
	direct := NewInteractiveClientConfig(config, "", nil, errReader{}, nil).(*DirectClientConfig)
	direct.prompted.username, direct.prompted.password = "u", "p"
	c, err = direct.ClientConfig()
	if err != nil || c.Username != "u" || c.Password != "p" {
		t.Fatalf("got %+v, %v", c, err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("must not be read") }

func TestParseTimeout(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{"0", 0, false}, {"30", 30 * time.Second, false}, {"2m", 2 * time.Minute, false},
		{"1h30m", 90 * time.Minute, false}, {"-5", 0, true}, {"abc", 0, true}, {"", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseTimeout(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseTimeout(%q) = %v, %v", tt.in, got, err)
		}
	}
}

func TestCleanANSIEscapeCodes(t *testing.T) {
	if got := escapeTerminalControls("ok\ttab\nline é ✓"); got != "ok\ttab\nline é ✓" {
		t.Errorf("printable text changed: %q", got)
	}
	if got := escapeTerminalControls("a\x1b[31mred\x07"); got != "aU+001B[31mredU+0007" {
		t.Errorf("got %q", got)
	}
}
