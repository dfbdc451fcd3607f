package clientcmd

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

func TestValidateMessages(t *testing.T) {
	dir := t.TempDir()
	missingCert := filepath.Join(dir, "missing.crt")
	tests := []struct {
		name   string
		mutate func(c *clientcmdapi.Config)
		want   []string
	}{
		{"valid", func(c *clientcmdapi.Config) {}, nil},
		{"unknown current context", func(c *clientcmdapi.Config) { c.CurrentContext = "ghost" },
			[]string{"context was not found for specified context: ghost"}},
		{"missing client certificate file", func(c *clientcmdapi.Config) {
			c.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificate: missingCert, ClientKeyData: []byte("k")}
		}, []string{"unable to read client-cert " + missingCert + " for u due to"}},
		{"cert without key", func(c *clientcmdapi.Config) {
			c.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificateData: []byte("c")}
		}, []string{"client-key-data or client-key must be specified for u"}},
		{"two auth methods", func(c *clientcmdapi.Config) {
			c.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "t", Username: "a"}
		}, []string{"more than one authentication method found for u; found [token basicAuth]"}},
		{"impersonation details without user", func(c *clientcmdapi.Config) {
			c.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "t", ImpersonateGroups: []string{"g"}}
		}, []string{"requesting uid, groups or user-extra for u without impersonating a user"}},
		{"CA file and data", func(c *clientcmdapi.Config) {
			c.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://x", CertificateAuthority: filepath.Join(dir, "nope.crt"), CertificateAuthorityData: []byte("x")}
		}, []string{"certificate-authority-data and certificate-authority are both specified for c", "unable to read certificate-authority"}},
		{"cluster without server", func(c *clientcmdapi.Config) {
			c.Clusters["c"] = &clientcmdapi.Cluster{InsecureSkipTLSVerify: true}
		}, []string{`no server found for cluster "c"`}},
		{"context refers to missing entries", func(c *clientcmdapi.Config) {
			c.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "nc", AuthInfo: "nu", Namespace: "Bad_NS"}
		}, []string{`user "nu" was not found for context "ctx"`, `cluster "nc" was not found for context "ctx"`,
			`namespace "Bad_NS" for context "ctx" does not conform to the kubernetes DNS_LABEL rules`}},
		{"exec plugin incomplete", func(c *clientcmdapi.Config) {
			c.AuthInfos["u"] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{Env: []clientcmdapi.ExecEnvVar{{Value: "v"}}, InteractiveMode: "Sometimes"},
				AuthProvider: &clientcmdapi.AuthProviderConfig{Name: "oidc"}}
		}, []string{"authProvider cannot be provided in combination with an exec plugin for u",
			"command must be specified for u", "apiVersion must be specified for u",
			"env variable name must be specified for u", `invalid interactiveMode for u: "Sometimes"`}},
		{"exec without interactive mode", func(c *clientcmdapi.Config) {
			c.AuthInfos["u"] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{Command: "x", APIVersion: "v"}}
		}, []string{"interactiveMode must be specified for u"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
			tt.mutate(&config)
			err := Validate(config)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("want an error")
			}
			if !IsConfigurationInvalid(err) || !strings.HasPrefix(err.Error(), "invalid configuration: ") {
				t.Errorf("error %q is not a configuration-invalid error", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var agg utilerrors.Aggregate
			if !errors.As(err, &agg) || len(agg.Errors()) < len(tt.want) {
				t.Errorf("error is not an aggregate of every problem: %#v", err)
			}
		})
	}
}

func TestValidateEmptyAndConfirmUsable(t *testing.T) {
	err := Validate(*clientcmdapi.NewConfig())
	if !IsEmptyConfig(err) || !IsConfigurationInvalid(err) {
		t.Errorf("empty config: %v", err)
	}
	if !errors.Is(err, ErrEmptyConfig) {
		t.Errorf("errors.Is(err, ErrEmptyConfig) = false for %v", err)
	}

	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{Token: "t"})
	config.AuthInfos["broken"] = &clientcmdapi.AuthInfo{Token: "t", Password: "p"}
	config.Contexts["other"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "broken"}
	if err := ConfirmUsable(config, ""); err != nil {
		t.Errorf("current context is usable, but got %v", err)
	}
	if err := ConfirmUsable(config, "other"); err == nil || !strings.Contains(err.Error(), "more than one authentication method found for broken") {
		t.Errorf("ConfirmUsable(other) = %v", err)
	}
	err = ConfirmUsable(config, "ghost")
	if !IsContextNotFound(err) || err.Error() != "invalid configuration: context was not found for specified context: ghost" {
		t.Errorf("ConfirmUsable(ghost) = %v", err)
	}
	config.CurrentContext = ""
	if err := ConfirmUsable(config, ""); err != ErrNoContext || !IsContextNotFound(err) {
		t.Errorf("no context chosen: %v", err)
	}
}

func TestErrorPredicates(t *testing.T) {
	custom := NewEmptyConfigError("nothing here")
	if !IsEmptyConfig(custom) || custom.Error() != "nothing here" {
		t.Errorf("NewEmptyConfigError: %v", custom)
	}
	if IsEmptyConfig(errConfigurationInvalid{custom, errors.New("other")}) {
		t.Errorf("two errors are not just an empty config")
	}
	if IsEmptyConfig(errors.New("x")) || IsContextNotFound(nil) || IsConfigurationInvalid(errors.New("x")) {
		t.Errorf("plain errors misclassified")
	}
	if !IsContextNotFound(errors.New("wrapped: context was not found for specified context: a")) {
		t.Errorf("message match must count")
	}
	nested := errConfigurationInvalid{utilerrors.NewAggregate([]error{ErrEmptyCluster})}
	if !errors.Is(nested, ErrEmptyCluster) {
		t.Errorf("errors.Is must look into nested aggregates")
	}
}

func TestDirectConfirmUsableEmptyCluster(t *testing.T) {
	err := NewDefaultClientConfig(*clientcmdapi.NewConfig(), &ConfigOverrides{}).(*DirectClientConfig).ConfirmUsable()
	if !IsEmptyConfig(err) {
		t.Errorf("an empty cluster alone must read as an empty config, got %v", err)
	}
	config := singleContextConfig(&clientcmdapi.Cluster{Server: "https://x"}, &clientcmdapi.AuthInfo{ClientCertificate: "/does/not/exist", ClientKey: "/nor/this"})
	err = NewNonInteractiveClientConfig(config, "ctx", nil, nil).(*DirectClientConfig).ConfirmUsable()
	if err == nil || !strings.Contains(err.Error(), "unable to read client-cert /does/not/exist for u") || !strings.Contains(err.Error(), "unable to read client-key /nor/this for u") {
		t.Errorf("got %v", err)
	}
}
