package v1

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := api.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInternalToV1SortsNamedLists(t *testing.T) {
	in := api.NewConfig()
	in.Kind, in.APIVersion = "Config", "v1"
	in.CurrentContext = "b"
	for _, n := range []string{"c", "a", "b"} {
		in.Clusters[n] = &api.Cluster{Server: "https://" + n, LocationOfOrigin: "/somewhere"}
		in.AuthInfos[n] = &api.AuthInfo{Token: "tok-" + n, Impersonate: "as-" + n}
		in.Contexts[n] = &api.Context{Cluster: n, AuthInfo: n}
	}
	in.Extensions["z"] = &runtime.Unknown{Raw: []byte(`{"z":1}`), ContentType: runtime.ContentTypeJSON}
	in.Extensions["y"] = &runtime.Unknown{Raw: []byte(`{"y":1}`), ContentType: runtime.ContentTypeJSON}

	out := &Config{}
	if err := newScheme(t).Convert(in, out, nil); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range out.Clusters {
		names = append(names, c.Name+"="+c.Cluster.Server)
	}
	for _, u := range out.AuthInfos {
		names = append(names, u.Name+"="+u.AuthInfo.Token+"/"+u.AuthInfo.Impersonate)
	}
	for _, c := range out.Contexts {
		names = append(names, c.Name+"="+c.Context.Cluster)
	}
	for _, e := range out.Extensions {
		names = append(names, e.Name+"="+string(e.Extension.Raw))
	}
	want := "a=https://a,b=https://b,c=https://c,a=tok-a/as-a,b=tok-b/as-b,c=tok-c/as-c,a=a,b=b,c=c,y={\"y\":1},z={\"z\":1}"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("named lists:\n got %s\nwant %s", got, want)
	}
	if out.CurrentContext != "b" {
		t.Errorf("current context = %q", out.CurrentContext)
	}
}

func TestV1ToInternal(t *testing.T) {
	in := &Config{
		CurrentContext: "ctx",
		Preferences:    Preferences{Colors: true},
		Clusters:       []NamedCluster{{Name: "cl", Cluster: Cluster{Server: "https://s", ProxyURL: "http://p", DisableCompression: true, Extensions: []NamedExtension{{Name: "e", Extension: runtime.RawExtension{Raw: []byte(`{"a":1}`)}}}}}},
		AuthInfos: []NamedAuthInfo{{Name: "u", AuthInfo: AuthInfo{
			Impersonate: "bob", ImpersonateUID: "1", ImpersonateGroups: []string{"g"}, ImpersonateUserExtra: map[string][]string{"k": {"v"}},
			AuthProvider: &AuthProviderConfig{Name: "oidc", Config: map[string]string{"id-token": "x"}},
			Exec:         &ExecConfig{Command: "cmd", Args: []string{"a"}, Env: []ExecEnvVar{{Name: "N", Value: "V"}}, APIVersion: "client.authentication.k8s.io/v1", InstallHint: "hint", ProvideClusterInfo: true, InteractiveMode: NeverExecInteractiveMode},
		}}},
		Contexts: []NamedContext{{Name: "ctx", Context: Context{Cluster: "cl", AuthInfo: "u", Namespace: "ns"}}},
	}
	out := &api.Config{}
	if err := newScheme(t).Convert(in, out, nil); err != nil {
		t.Fatal(err)
	}
	cl := out.Clusters["cl"]
	if cl == nil || cl.Server != "https://s" || cl.ProxyURL != "http://p" || !cl.DisableCompression {
		t.Fatalf("cluster = %+v", cl)
	}
	if ext, ok := cl.Extensions["e"].(*runtime.Unknown); !ok || string(ext.Raw) != `{"a":1}` {
		t.Errorf("cluster extension = %#v", cl.Extensions["e"])
	}
	u := out.AuthInfos["u"]
	if u == nil || u.Impersonate != "bob" || u.ImpersonateUID != "1" || u.ImpersonateGroups[0] != "g" || u.ImpersonateUserExtra["k"][0] != "v" {
		t.Fatalf("user = %+v", u)
	}
	if u.AuthProvider.Name != "oidc" || u.AuthProvider.Config["id-token"] != "x" {
		t.Errorf("auth provider = %v", u.AuthProvider)
	}
	e := u.Exec
	if e.Command != "cmd" || e.Args[0] != "a" || e.Env[0] != (api.ExecEnvVar{Name: "N", Value: "V"}) || e.InstallHint != "hint" || !e.ProvideClusterInfo || e.InteractiveMode != api.NeverExecInteractiveMode {
		t.Errorf("exec = %#v", *e)
	}
	if ctx := out.Contexts["ctx"]; ctx == nil || ctx.Namespace != "ns" || ctx.AuthInfo != "u" {
		t.Errorf("context = %+v", ctx)
	}
	if !out.Preferences.Colors || out.CurrentContext != "ctx" {
		t.Errorf("preferences/current context not converted")
	}
}

func TestDuplicateNamesAreRejected(t *testing.T) {
	s := newScheme(t)
	tests := map[string]struct {
		in      *Config
		wantErr string
	}{
		"clusters": {
			in:      &Config{Clusters: []NamedCluster{{Name: "x"}, {Name: "x"}}},
			wantErr: `error converting *[]NamedCluster into *map[string]*api.Cluster: duplicate name "x" in list`,
		},
		"users": {
			in:      &Config{AuthInfos: []NamedAuthInfo{{Name: "x"}, {Name: "x", AuthInfo: AuthInfo{Token: "secret-token"}}}},
			wantErr: `error converting *[]NamedAuthInfo into *map[string]*api.AuthInfo: duplicate name "x" in list`,
		},
		"contexts": {
			in:      &Config{Contexts: []NamedContext{{Name: "x"}, {Name: "x"}}},
			wantErr: `error converting *[]NamedContext into *map[string]*api.Context: duplicate name "x" in list`,
		},
		"extensions": {
			in:      &Config{Extensions: []NamedExtension{{Name: "x"}, {Name: "x"}}},
			wantErr: `error converting *[]NamedExtension into *map[string]runtime.Object: duplicate name "x" in list`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := s.Convert(tc.in, &api.Config{}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "secret-token") {
				t.Errorf("error leaks credentials: %v", err)
			}
		})
	}
}

func TestInternalOnlyExecFieldsAreDropped(t *testing.T) {
	in := &api.ExecConfig{Command: "c", StdinUnavailable: true, StdinUnavailableMessage: "m", Config: &runtime.Unknown{},
		PluginPolicy: api.PluginPolicy{PolicyType: api.PluginPolicyDenyAll}}
	out := &ExecConfig{}
	if err := Convert_api_ExecConfig_To_v1_ExecConfig(in, out, nil); err != nil {
		t.Fatal(err)
	}
	back := &api.ExecConfig{}
	if err := Convert_v1_ExecConfig_To_api_ExecConfig(out, back, nil); err != nil {
		t.Fatal(err)
	}
	if back.Command != "c" || back.StdinUnavailable || back.Config != nil || back.PluginPolicy.PolicyType != "" {
		t.Errorf("round trip = %#v", back)
	}
}

func TestSetDefaultsExecConfig(t *testing.T) {
	tests := []struct {
		apiVersion string
		mode       ExecInteractiveMode
		want       ExecInteractiveMode
	}{
		{"client.authentication.k8s.io/v1alpha1", "", IfAvailableExecInteractiveMode},
		{"client.authentication.k8s.io/v1beta1", "", IfAvailableExecInteractiveMode},
		{"client.authentication.k8s.io/v1", "", ""},
		{"client.authentication.k8s.io/v1beta1", NeverExecInteractiveMode, NeverExecInteractiveMode},
		{"", "", ""},
	}
	for _, tt := range tests {
		e := &ExecConfig{APIVersion: tt.apiVersion, InteractiveMode: tt.mode}
		SetDefaults_ExecConfig(e)
		if e.InteractiveMode != tt.want {
			t.Errorf("%s/%q: mode %q, want %q", tt.apiVersion, tt.mode, e.InteractiveMode, tt.want)
		}
	}

	cfg := &Config{AuthInfos: []NamedAuthInfo{{Name: "a", AuthInfo: AuthInfo{Exec: &ExecConfig{APIVersion: "client.authentication.k8s.io/v1beta1"}}}, {Name: "b"}}}
	newScheme(t).Default(cfg)
	if cfg.AuthInfos[0].AuthInfo.Exec.InteractiveMode != IfAvailableExecInteractiveMode {
		t.Errorf("scheme defaulting did not reach nested exec configs")
	}
}

func TestV1DeepCopy(t *testing.T) {
	c := &Config{
		Clusters:   []NamedCluster{{Name: "c", Cluster: Cluster{CertificateAuthorityData: []byte("ca")}}},
		AuthInfos:  []NamedAuthInfo{{Name: "u", AuthInfo: AuthInfo{Exec: &ExecConfig{Args: []string{"a"}}}}},
		Extensions: []NamedExtension{{Name: "e", Extension: runtime.RawExtension{Raw: []byte("{}")}}},
	}
	cp := c.DeepCopy()
	cp.Clusters[0].Cluster.CertificateAuthorityData[0] = 'X'
	cp.AuthInfos[0].AuthInfo.Exec.Args[0] = "b"
	cp.Extensions[0].Extension.Raw[0] = 'X'
	if string(c.Clusters[0].Cluster.CertificateAuthorityData) != "ca" || c.AuthInfos[0].AuthInfo.Exec.Args[0] != "a" || c.Extensions[0].Extension.Raw[0] != '{' {
		t.Errorf("changing the copy changed the original")
	}
}
