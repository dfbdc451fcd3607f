package auth

import (
	"os"
	"path/filepath"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kubeclient/client-go/test/integration/framework"
	"github.com/kubeclient/client-go/testenv"
	"github.com/kubeclient/client-go/tools/clientcmd"
)

func TestBearerToken(t *testing.T) {
	expectUser(t, controlPlane.AdminConfig(), framework.AdminUser, "system:masters", "system:authenticated")
	expectUser(t, controlPlane.UnprivilegedConfig(), framework.PlainUser, "system:authenticated")

	_, err := whoAmI(t, controlPlane.TokenConfig("not-a-known-token"))
	if !apierrors.IsUnauthorized(err) {
		t.Errorf("unknown token: %v, want Unauthorized", err)
	}
}

func TestBearerTokenFile(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		contents string
		wantUser string // empty: expect Unauthorized
	}{
		{"admin", framework.AdminToken, framework.AdminUser},
		{"trailing newline", framework.PlainToken + "\n", framework.PlainUser},
		{"unknown token", "nobody-has-this-token", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "token-"+string(rune('a'+i)))
			if err := os.WriteFile(path, []byte(tt.contents), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg := controlPlane.AnonymousConfig()
			cfg.BearerTokenFile = path
			if tt.wantUser != "" {
				expectUser(t, cfg, tt.wantUser)
				return
			}
			if _, err := whoAmI(t, cfg); !apierrors.IsUnauthorized(err) {
				t.Errorf("got %v, want Unauthorized", err)
			}
		})
	}
}

func TestExecCredentialPlugin(t *testing.T) {
	tests := []struct {
		name     string
		token    string
		wantUser string // empty: expect Unauthorized
	}{
		{"admin", framework.AdminToken, framework.AdminUser},
		{"plain user", framework.PlainToken, framework.PlainUser},
		{"rejected token", "plugin-made-this-up", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exec, err := framework.ExecPluginConfig(tt.token)
			if err != nil {
				t.Fatal(err)
			}
			cfg := controlPlane.AnonymousConfig()
			cfg.ExecProvider = exec
			if tt.wantUser != "" {
				expectUser(t, cfg, tt.wantUser, "system:authenticated")
				return
			}
			if _, err := whoAmI(t, cfg); !apierrors.IsUnauthorized(err) {
				t.Errorf("got %v, want Unauthorized", err)
			}
		})
	}
}

func TestKubeconfig(t *testing.T) {
	cfg, err := clientcmd.BuildConfigFromFlags("", controlPlane.KubeconfigPath)
	if err != nil {
		t.Fatalf("BuildConfigFromFlags(%s): %v", controlPlane.KubeconfigPath, err)
	}
	if cfg.Host != controlPlane.Host {
		t.Errorf("kubeconfig host %q, want %q", cfg.Host, controlPlane.Host)
	}
	expectUser(t, cfg, framework.AdminUser, "system:masters")

	// Through the loading rules and an explicit context override.
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: controlPlane.KubeconfigPath}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: testenv.KubeconfigContext}
	cfg, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
	if err != nil {
		t.Fatalf("deferred loading: %v", err)
	}
	expectUser(t, cfg, framework.AdminUser)

	// A kubeconfig without the CA must fail TLS verification.
	noCA := *cfg
	noCA.TLSClientConfig.CAFile = ""
	noCA.TLSClientConfig.CAData = nil
	if _, err := whoAmI(t, &noCA); err == nil {
		t.Error("request without the CA succeeded; TLS verification is off")
	}
}
