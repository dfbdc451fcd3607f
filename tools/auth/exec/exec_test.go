package exec

import (
	"strings"
	"testing"

	clientauthenticationv1 "github.com/kubeclient/client-go/pkg/apis/clientauthentication/v1"
	clientauthenticationv1beta1 "github.com/kubeclient/client-go/pkg/apis/clientauthentication/v1beta1"
)

func TestLoadExecCredential(t *testing.T) {
	cases := []struct {
		name       string
		data       string
		wantHost   string
		wantServer string
		wantProxy  string
		wantType   string
		wantErr    string
	}{
		{
			name: "v1 with cluster",
			data: `{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{` +
				`"server":"https://10.0.0.1:6443","tls-server-name":"kube.local","certificate-authority-data":"Q0FEQVRB","proxy-url":"http://proxy:3128","config":{"region":"eu"}}}}`,
			wantHost: "https://10.0.0.1:6443", wantServer: "kube.local", wantProxy: "http://proxy:3128", wantType: "v1",
		},
		{
			name:     "v1beta1 with cluster",
			data:     `{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"cluster":{"server":"https://example.com"}}}`,
			wantHost: "https://example.com", wantType: "v1beta1",
		},
		{
			name:     "v1 cluster without config",
			data:     `{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"https://example.com/path","insecure-skip-tls-verify":true}}}`,
			wantHost: "https://example.com/path", wantType: "v1",
		},
		{
			name:    "v1 no cluster",
			data:    `{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":true}}`,
			wantErr: "ExecCredential does not contain cluster information",
		},
		{
			name:    "v1beta1 no cluster",
			data:    `{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{}}`,
			wantErr: "ExecCredential does not contain cluster information",
		},
		{
			name:    "v1 invalid cluster",
			data:    `{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"https://example.com","proxy-url":"invalid- url\n"}}}`,
			wantErr: "cannot create rest.Config: ",
		},
		{
			name:    "v1beta1 invalid cluster",
			data:    `{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"cluster":{"proxy-url":"invalid- url\n"}}}`,
			wantErr: "cannot create rest.Config: ",
		},
		{
			name:    "invalid kind",
			data:    `{"apiVersion":"v1","kind":"Status","status":"Failure"}`,
			wantErr: "invalid group/kind: wanted ExecCredential.client.authentication.k8s.io, got Status",
		},
		{name: "bad data", data: `not json`, wantErr: "decode: "},
		{name: "unknown version", data: `{"apiVersion":"client.authentication.k8s.io/v9","kind":"ExecCredential"}`, wantErr: "decode: "},
		{name: "unregistered kind", data: `{"apiVersion":"v1","kind":"Pod"}`, wantErr: "decode: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KUBERNETES_EXEC_INFO", tc.data)
			obj, config, err := LoadExecCredentialFromEnv()
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want it to start with %q", err, tc.wantErr)
				}
				if obj != nil || config != nil {
					t.Errorf("a failed load returned %v and %v", obj, config)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if config.Host != tc.wantHost || config.TLSClientConfig.ServerName != tc.wantServer {
				t.Errorf("config host %q server name %q", config.Host, config.TLSClientConfig.ServerName)
			}
			if config.BearerToken != "" || config.Username != "" || config.ExecProvider != nil {
				t.Errorf("config carries credentials: %+v", config)
			}
			if tc.wantProxy != "" {
				if config.Proxy == nil {
					t.Fatal("proxy not set")
				}
			}
			switch o := obj.(type) {
			case *clientauthenticationv1.ExecCredential:
				if tc.wantType != "v1" || string(o.Spec.Cluster.CertificateAuthorityData) != string(config.TLSClientConfig.CAData) {
					t.Errorf("unexpected v1 object %+v", o.Spec.Cluster)
				}
			case *clientauthenticationv1beta1.ExecCredential:
				if tc.wantType != "v1beta1" {
					t.Errorf("unexpected v1beta1 object")
				}
			default:
				t.Errorf("unexpected object %T", obj)
			}
		})
	}
}

func TestLoadExecCredentialFromEmptyEnv(t *testing.T) {
	t.Setenv("KUBERNETES_EXEC_INFO", "")
	if _, _, err := LoadExecCredentialFromEnv(); err == nil || !strings.Contains(err.Error(), "KUBERNETES_EXEC_INFO") {
		t.Fatalf("error = %v", err)
	}
}
