package api

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

func sampleConfig() *Config {
	c := NewConfig()
	c.CurrentContext = "dev"
	c.Contexts["dev"] = &Context{Cluster: "dev-cluster", AuthInfo: "alice", Namespace: "a"}
	c.Contexts["prod"] = &Context{Cluster: "prod-cluster", AuthInfo: "bob"}
	c.Clusters["dev-cluster"] = &Cluster{Server: "https://dev", CertificateAuthorityData: []byte("ca")}
	c.Clusters["prod-cluster"] = &Cluster{Server: "https://prod"}
	c.AuthInfos["alice"] = &AuthInfo{Token: "alice-token", ClientKeyData: []byte("key"), ClientCertificateData: []byte("cert"), Password: "pw"}
	c.AuthInfos["bob"] = &AuthInfo{Username: "bob"}
	return c
}

func TestMinifyConfig(t *testing.T) {
	c := sampleConfig()
	if err := MinifyConfig(c); err != nil {
		t.Fatal(err)
	}
	if len(c.Contexts) != 1 || c.Contexts["dev"] == nil || len(c.Clusters) != 1 || c.Clusters["dev-cluster"] == nil ||
		len(c.AuthInfos) != 1 || c.AuthInfos["alice"] == nil {
		t.Errorf("minified config = contexts %v clusters %v users %v", c.Contexts, c.Clusters, c.AuthInfos)
	}
}

func TestMinifyConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Config)
		want   string
	}{
		{"no current context", func(c *Config) { c.CurrentContext = "" }, "current-context must exist in order to minify"},
		{"missing context", func(c *Config) { c.CurrentContext = "nope" }, "cannot locate context nope"},
		{"missing cluster", func(c *Config) { delete(c.Clusters, "dev-cluster") }, "cannot locate cluster dev-cluster"},
		{"missing user", func(c *Config) { delete(c.AuthInfos, "alice") }, "cannot locate user alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sampleConfig()
			tt.modify(c)
			before := len(c.Contexts)
			err := MinifyConfig(c)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
			if len(c.Contexts) != before {
				t.Errorf("config modified despite the error")
			}
		})
	}
}

func TestShortenConfig(t *testing.T) {
	c := sampleConfig()
	ShortenConfig(c)
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`"client-key-data":"DATA+OMITTED"`, `"client-certificate-data":"DATA+OMITTED"`, `"certificate-authority-data":"DATA+OMITTED"`, `"token":"REDACTED"`} {
		if !strings.Contains(s, want) {
			t.Errorf("shortened config lacks %s:\n%s", want, s)
		}
	}
	// Basic-auth password is not shortened, and absent data stays absent.
	if c.AuthInfos["alice"].Password != "pw" || c.Clusters["prod-cluster"].CertificateAuthorityData != nil {
		t.Errorf("ShortenConfig touched unrelated fields")
	}
}

func TestRedactSecrets(t *testing.T) {
	c := sampleConfig()
	if err := RedactSecrets(c); err != nil {
		t.Fatal(err)
	}
	alice := c.AuthInfos["alice"]
	if alice.Token != "REDACTED" || alice.Password != "REDACTED" || string(alice.ClientKeyData) != "REDACTED" {
		t.Errorf("secrets not redacted: %+v", alice)
	}
	if string(alice.ClientCertificateData) != "cert" || string(c.Clusters["dev-cluster"].CertificateAuthorityData) != "ca" {
		t.Errorf("non-secret data redacted")
	}
	bob := c.AuthInfos["bob"]
	if bob.Token != "" || bob.Password != "" || bob.ClientKeyData != nil || bob.Username != "bob" {
		t.Errorf("empty secrets were filled in: %+v", bob)
	}
}

func TestFlattenConfig(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"ca.crt": "CA", "client.crt": "CERT", "client.key": "KEY"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	origin := filepath.Join(dir, "kubeconfig")
	c := NewConfig()
	c.Clusters["c"] = &Cluster{LocationOfOrigin: origin, CertificateAuthority: "ca.crt"}
	c.AuthInfos["u"] = &AuthInfo{LocationOfOrigin: origin, ClientCertificate: filepath.Join(dir, "client.crt"), ClientKey: "client.key"}
	if err := FlattenConfig(c); err != nil {
		t.Fatal(err)
	}
	cl, u := c.Clusters["c"], c.AuthInfos["u"]
	if cl.CertificateAuthority != "" || string(cl.CertificateAuthorityData) != "CA" {
		t.Errorf("cluster not flattened: %+v", cl)
	}
	if u.ClientCertificate != "" || string(u.ClientCertificateData) != "CERT" || u.ClientKey != "" || string(u.ClientKeyData) != "KEY" {
		t.Errorf("user not flattened: %+v", u)
	}

	bad := NewConfig()
	bad.Clusters["c"] = &Cluster{LocationOfOrigin: origin, CertificateAuthority: "missing.crt"}
	if err := FlattenConfig(bad); err == nil {
		t.Errorf("flattening a missing file succeeded")
	}
}

func TestFlattenContent(t *testing.T) {
	path, data := "x", []byte("inline")
	if err := FlattenContent(&path, &data, "/"); err == nil || !strings.Contains(err.Error(), "both path and contents") {
		t.Errorf("error = %v, want a path/contents conflict", err)
	}
	empty, none := "", []byte(nil)
	if err := FlattenContent(&empty, &none, "/"); err != nil || none != nil {
		t.Errorf("empty path: %v, %v", err, none)
	}
}

func TestResolvePathAndMakeAbs(t *testing.T) {
	for _, tt := range []struct{ path, base, want string }{
		{"", "/base", ""},
		{"/abs/file", "/base", "/abs/file"},
		{"rel/file", "/base", "/base/rel/file"},
	} {
		if got := ResolvePath(tt.path, tt.base); got != tt.want {
			t.Errorf("ResolvePath(%q, %q) = %q, want %q", tt.path, tt.base, got, tt.want)
		}
	}
	wd, _ := os.Getwd()
	for _, tt := range []struct{ path, base, want string }{
		{"/abs", "/base", "/abs"},
		{"rel", "/base", "/base/rel"},
		{"rel", "", filepath.Join(wd, "rel")},
	} {
		got, err := MakeAbs(tt.path, tt.base)
		if err != nil || got != tt.want {
			t.Errorf("MakeAbs(%q, %q) = %q, %v; want %q", tt.path, tt.base, got, err, tt.want)
		}
	}
}

func TestIsConfigEmpty(t *testing.T) {
	tests := []struct {
		name string
		c    *Config
		want bool
	}{
		{"new", NewConfig(), true},
		{"zero", &Config{}, true},
		{"kind only", &Config{Kind: "Config", APIVersion: "v1"}, true},
		{"current context", &Config{CurrentContext: "x"}, false},
		{"colors", &Config{Preferences: Preferences{Colors: true}}, false},
		{"extension", &Config{Extensions: map[string]runtime.Object{"e": &runtime.Unknown{}}}, false},
		{"cluster", &Config{Clusters: map[string]*Cluster{"c": {}}}, false},
	}
	for _, tt := range tests {
		if got := IsConfigEmpty(tt.c); got != tt.want {
			t.Errorf("%s: IsConfigEmpty = %t, want %t", tt.name, got, tt.want)
		}
	}
}

func TestStringersHideSecrets(t *testing.T) {
	exec := ExecConfig{
		Command: "get-token", Args: []string{"--secret=abc"}, Env: []ExecEnvVar{{Name: "PASS", Value: "hunter2"}},
		APIVersion: "client.authentication.k8s.io/v1", Config: &runtime.Unknown{Raw: []byte(`{"key":"s3cret"}`)},
	}
	provider := AuthProviderConfig{Name: "oidc", Config: map[string]string{"id-token": "tok3n"}}
	for _, s := range []string{
		exec.String(), exec.GoString(), fmt.Sprintf("%v", exec), fmt.Sprintf("%#v", exec), fmt.Sprintf("%+v", &AuthInfo{Exec: &exec}),
		provider.String(), fmt.Sprintf("%#v", provider), fmt.Sprintf("%v", &AuthInfo{AuthProvider: &provider}),
	} {
		for _, secret := range []string{"abc", "hunter2", "s3cret", "tok3n"} {
			if strings.Contains(s, secret) {
				t.Errorf("%q leaks %q", s, secret)
			}
		}
	}
	if want := `api.ExecConfig{Command: "get-token", Args: []string{"--- REDACTED ---"}, Env: []ExecEnvVar{--- REDACTED ---}, APIVersion: "client.authentication.k8s.io/v1", ProvideClusterInfo: false, Config: runtime.Object(--- REDACTED ---), StdinUnavailable: false}`; exec.String() != want {
		t.Errorf("ExecConfig.String() =\n%s\nwant\n%s", exec.String(), want)
	}
	if want := `api.ExecConfig{Command: "", Args: []string(nil), Env: []ExecEnvVar(nil), APIVersion: "", ProvideClusterInfo: false, Config: runtime.Object(nil), StdinUnavailable: false}`; (ExecConfig{}).String() != want {
		t.Errorf("empty ExecConfig.String() = %s", ExecConfig{}.String())
	}
	if want := `api.AuthProviderConfig{Name: "oidc", Config: map[string]string{--- REDACTED ---}}`; provider.String() != want {
		t.Errorf("AuthProviderConfig.String() = %s", provider.String())
	}
	if want := `api.AuthProviderConfig{Name: "x", Config: map[string]string{<nil>}}`; (AuthProviderConfig{Name: "x"}).String() != want {
		t.Errorf("nil config String() = %s", AuthProviderConfig{Name: "x"}.String())
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	c := sampleConfig()
	c.Extensions["ext"] = &runtime.Unknown{Raw: []byte(`{"a":1}`)}
	c.AuthInfos["alice"].Exec = &ExecConfig{Command: "x", Args: []string{"a"}, Env: []ExecEnvVar{{Name: "n", Value: "v"}},
		PluginPolicy: PluginPolicy{PolicyType: PluginPolicyAllowlist, Allowlist: []AllowlistEntry{{Command: "x"}}}}
	c.AuthInfos["alice"].AuthProvider = &AuthProviderConfig{Name: "p", Config: map[string]string{"k": "v"}}
	c.AuthInfos["alice"].ImpersonateUserExtra = map[string][]string{"scopes": {"a"}}

	cp := c.DeepCopy()
	cp.Clusters["dev-cluster"].CertificateAuthorityData[0] = 'X'
	cp.AuthInfos["alice"].Exec.Args[0] = "changed"
	cp.AuthInfos["alice"].Exec.PluginPolicy.Allowlist[0].Command = "changed"
	cp.AuthInfos["alice"].AuthProvider.Config["k"] = "changed"
	cp.AuthInfos["alice"].ImpersonateUserExtra["scopes"][0] = "changed"
	cp.Extensions["ext"].(*runtime.Unknown).Raw[0] = 'X'
	cp.Contexts["dev"].Namespace = "changed"

	alice := c.AuthInfos["alice"]
	if string(c.Clusters["dev-cluster"].CertificateAuthorityData) != "ca" || alice.Exec.Args[0] != "a" ||
		alice.Exec.PluginPolicy.Allowlist[0].Command != "x" || alice.AuthProvider.Config["k"] != "v" ||
		alice.ImpersonateUserExtra["scopes"][0] != "a" || c.Extensions["ext"].(*runtime.Unknown).Raw[0] != '{' ||
		c.Contexts["dev"].Namespace != "a" {
		t.Errorf("changing the copy changed the original")
	}
	if (*Config)(nil).DeepCopy() != nil {
		t.Errorf("nil DeepCopy is not nil")
	}
	var obj runtime.Object = c
	if _, ok := obj.DeepCopyObject().(*Config); !ok {
		t.Errorf("DeepCopyObject returned the wrong type")
	}
}
