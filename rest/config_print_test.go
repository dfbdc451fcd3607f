package rest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// TestConfigPrintingRedactsEverywhere prints a Config holding every kind of
// secret as a value, a pointer, and nested in other values, with every verb,
// and finds none of them. client-go leaks them for every form but the
// pointer with %v, %s and %#v.
func TestConfigPrintingRedactsEverywhere(t *testing.T) {
	secrets := map[string]string{
		"Password":            "hunter2-password",
		"BearerToken":         "secret-bearer-token",
		"KeyData":             "private-key-bytes",
		"CertData":            "client-cert-bytes",
		"ExecProvider.Config": "exec-config-secret",
		"ExecProvider.Env":    "exec-env-secret",
		"AuthProvider.Config": "auth-provider-id-token",
	}
	cfg := Config{
		Host:        "https://example.com",
		Username:    "admin",
		Password:    secrets["Password"],
		BearerToken: secrets["BearerToken"],
		ExecProvider: &clientcmdapi.ExecConfig{
			Command: "get-token",
			Env:     []clientcmdapi.ExecEnvVar{{Name: "TOKEN", Value: secrets["ExecProvider.Env"]}},
			Config:  &corev1.ConfigMap{Data: map[string]string{"k": secrets["ExecProvider.Config"]}},
		},
		AuthProvider:        &clientcmdapi.AuthProviderConfig{Name: "oidc", Config: map[string]string{"id-token": secrets["AuthProvider.Config"]}},
		AuthConfigPersister: &fakePersister{},
		TLSClientConfig: TLSClientConfig{
			CertData: []byte(secrets["CertData"]),
			KeyData:  []byte(secrets["KeyData"]),
		},
	}
	forms := map[string]any{
		"value":              cfg,
		"pointer":            &cfg,
		"in a struct":        struct{ C Config }{cfg},
		"pointer in struct":  struct{ C *Config }{&cfg},
		"in a slice":         []Config{cfg},
		"in a map":           map[string]Config{"k": cfg},
		"in an interface":    []any{cfg},
		"TLS value":          cfg.TLSClientConfig,
		"TLS pointer":        &cfg.TLSClientConfig,
		"TLS in a struct":    struct{ T TLSClientConfig }{cfg.TLSClientConfig},
		"Config in embedder": struct{ Config }{cfg},
	}
	// Not %p: fmt handles it before any method and prints a non-pointer's
	// raw fields (go vet reports that misuse).
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T %v", "%10.3v", "%t"}
	for formName, form := range forms {
		for _, verb := range verbs {
			out := fmt.Sprintf(verb, form)
			for field, secret := range secrets {
				for _, leaked := range secretForms(secret) {
					if strings.Contains(out, leaked) {
						t.Errorf("%s printed with %s shows %s (%q): %s", formName, verb, field, leaked, out)
					}
				}
			}
		}
	}

	// The pointer forms keep client-go's text; the value prints the same.
	if got, want := fmt.Sprintf("%v", cfg), cfg.String(); got != want {
		t.Errorf("value prints\n%s\nwant\n%s", got, want)
	}
	if got := fmt.Sprintf("%#v", &cfg); !strings.HasPrefix(got, "&rest.Config{Host:\"https://example.com\"") ||
		!strings.Contains(got, `Password:"--- REDACTED ---"`) || !strings.Contains(got, "TLSClientConfig:rest.sanitizedTLSClientConfig{") {
		t.Errorf("%%#v of a pointer: %s", got)
	}
	if got := fmt.Sprintf("%v", (*Config)(nil)); got != "<nil>" {
		t.Errorf("nil *Config prints %q", got)
	}

	// json.Marshal cannot encode a Config (it holds functions), as in
	// client-go; whatever it does, no secret comes out.
	out, err := json.Marshal(cfg)
	if err == nil {
		t.Errorf("json.Marshal(Config) succeeded: %s", out)
	}
	for _, secret := range secrets {
		if strings.Contains(string(out), secret) || (err != nil && strings.Contains(err.Error(), secret)) {
			t.Errorf("json.Marshal shows %q", secret)
		}
	}
}
