package latest

import (
	"bytes"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
)

const sampleKubeconfig = `apiVersion: v1
kind: Config
current-context: dev
preferences: {}
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example.com:6443
    certificate-authority-data: Q0EtREFUQQ==
    tls-server-name: api.dev
    extensions:
    - name: client.authentication.k8s.io/exec
      extension:
        audience: dev-aud
contexts:
- name: dev
  context:
    cluster: dev-cluster
    user: alice
    namespace: team-a
users:
- name: alice
  user:
    token: s3cr3t
    as: bob
    as-groups: [admins]
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: get-token
      args: ["--cluster", "dev"]
      env:
      - name: FOO
        value: bar
      provideClusterInfo: true
- name: carol
  user:
    auth-provider:
      name: oidc
      config:
        id-token: abc
`

func TestDecodeKubeconfig(t *testing.T) {
	for name, data := range map[string][]byte{
		"yaml": []byte(sampleKubeconfig),
		"json": mustJSON(t, []byte(sampleKubeconfig)),
	} {
		t.Run(name, func(t *testing.T) {
			obj, gvk, err := Codec.Decode(data, nil, nil)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if gvk.Version != "v1" || gvk.Kind != "Config" {
				t.Errorf("gvk = %v, want v1 Config", gvk)
			}
			cfg, ok := obj.(*api.Config)
			if !ok {
				t.Fatalf("decoded %T, want *api.Config", obj)
			}
			if cfg.CurrentContext != "dev" {
				t.Errorf("current context = %q", cfg.CurrentContext)
			}
			cl := cfg.Clusters["dev-cluster"]
			if cl == nil || cl.Server != "https://dev.example.com:6443" || string(cl.CertificateAuthorityData) != "CA-DATA" || cl.TLSServerName != "api.dev" {
				t.Errorf("cluster = %+v", cl)
			}
			ext, ok := cl.Extensions["client.authentication.k8s.io/exec"].(*runtime.Unknown)
			if !ok || !strings.Contains(string(ext.Raw), "dev-aud") {
				t.Errorf("cluster extension = %#v", cl.Extensions)
			}
			ctx := cfg.Contexts["dev"]
			if ctx == nil || ctx.Cluster != "dev-cluster" || ctx.AuthInfo != "alice" || ctx.Namespace != "team-a" {
				t.Errorf("context = %+v", ctx)
			}
			alice := cfg.AuthInfos["alice"]
			if alice == nil || alice.Token != "s3cr3t" || alice.Impersonate != "bob" || len(alice.ImpersonateGroups) != 1 {
				t.Fatalf("alice = %+v", alice)
			}
			if alice.Exec == nil || alice.Exec.Command != "get-token" || len(alice.Exec.Args) != 2 || alice.Exec.Env[0].Value != "bar" || !alice.Exec.ProvideClusterInfo {
				t.Errorf("exec = %v", alice.Exec)
			}
			// v1beta1 plugins default to IfAvailable.
			if alice.Exec.InteractiveMode != api.IfAvailableExecInteractiveMode {
				t.Errorf("interactive mode = %q, want IfAvailable", alice.Exec.InteractiveMode)
			}
			carol := cfg.AuthInfos["carol"]
			if carol == nil || carol.AuthProvider == nil || carol.AuthProvider.Config["id-token"] != "abc" {
				t.Errorf("carol = %+v", carol)
			}
		})
	}
}

func mustJSON(t *testing.T, yamlData []byte) []byte {
	t.Helper()
	j, err := yaml.YAMLToJSON(yamlData)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestEncodeRoundTrip(t *testing.T) {
	obj, _, err := Codec.Decode([]byte(sampleKubeconfig), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Codec.Encode(obj, &buf); err != nil {
		t.Fatalf("encode: %v", err)
	}
	out := buf.String()
	for _, want := range []string{"apiVersion: v1", "kind: Config", "as: bob", "name: dev-cluster", "current-context: dev", "audience: dev-aud"} {
		if !strings.Contains(out, want) {
			t.Errorf("encoded config lacks %q:\n%s", want, out)
		}
	}
	// Internal field names must not leak into the file.
	if strings.Contains(out, "act-as") {
		t.Errorf("encoded config uses internal field names:\n%s", out)
	}
	again, _, err := Codec.Decode(buf.Bytes(), nil, nil)
	if err != nil {
		t.Fatalf("decode of encoded config: %v", err)
	}
	a, b := obj.(*api.Config), again.(*api.Config)
	if a.AuthInfos["alice"].Token != b.AuthInfos["alice"].Token || a.Clusters["dev-cluster"].Server != b.Clusters["dev-cluster"].Server {
		t.Errorf("round trip changed the config")
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := map[string]string{
		"duplicate cluster": "apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: {server: x}\n- name: a\n  cluster: {server: y}\n",
		"duplicate user":    "apiVersion: v1\nkind: Config\nusers:\n- name: a\n  user: {}\n- name: a\n  user: {}\n",
		"wrong version":     "apiVersion: v2\nkind: Config\n",
		"not yaml":          "{{{",
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if _, _, err := Codec.Decode([]byte(data), nil, nil); err == nil {
				t.Fatalf("decode succeeded, want error")
			}
		})
	}
}

func TestEmptyConfigDecodesToEmptyConfig(t *testing.T) {
	obj, _, err := Codec.Decode([]byte("apiVersion: v1\nkind: Config\n"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !api.IsConfigEmpty(obj.(*api.Config)) {
		t.Errorf("config %+v is not empty", obj)
	}
}

// FuzzDecode feeds arbitrary bytes to Codec: decoding may fail but must
// never panic, and whatever decodes must encode again.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(sampleKubeconfig))
	f.Add([]byte("apiVersion: v1\nkind: Config\n"))
	f.Add([]byte(`{"apiVersion":"v1","kind":"Config","clusters":[{"name":"a","cluster":{"server":"x","extensions":[{"name":"e","extension":{"a":1}}]}}]}`))
	f.Add([]byte("apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    exec: {command: x, apiVersion: client.authentication.k8s.io/v1alpha1}\n"))
	f.Add([]byte("- 1\n- 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, _, err := Codec.Decode(data, nil, nil)
		if err != nil {
			return
		}
		cfg, ok := obj.(*api.Config)
		if !ok {
			return
		}
		_ = cfg.DeepCopy()
		var buf bytes.Buffer
		if err := Codec.Encode(cfg, &buf); err != nil {
			t.Fatalf("decoded config does not encode: %v", err)
		}
	})
}
