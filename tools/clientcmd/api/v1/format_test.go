package v1

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestPrintingRedactsSecrets formats the v1 kubeconfig types that hold
// credentials with every verb, as a value, a pointer and inside a Config.
// client-go prints them in clear text.
func TestPrintingRedactsSecrets(t *testing.T) {
	user := AuthInfo{
		Username:      "alice",
		Password:      "SECRET-password",
		Token:         "SECRET-token",
		ClientKeyData: []byte("SECRET-key"),
		AuthProvider:  &AuthProviderConfig{Name: "oidc", Config: map[string]string{"id-token": "SECRET-id-token"}},
		Exec: &ExecConfig{Command: "plugin", Args: []string{"--token=SECRET-arg"},
			Env: []ExecEnvVar{{Name: "TOKEN", Value: "SECRET-env"}}},
	}
	config := Config{AuthInfos: []NamedAuthInfo{{Name: "alice", AuthInfo: user}}}
	forms := map[string]any{
		"AuthInfo": user, "*AuthInfo": &user,
		"Config": config, "*Config": &config,
		"AuthProviderConfig": *user.AuthProvider, "*AuthProviderConfig": user.AuthProvider,
		"ExecConfig": *user.Exec, "*ExecConfig": user.Exec,
	}
	for name, value := range forms {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			if out := fmt.Sprintf(verb, value); strings.Contains(out, "SECRET") {
				t.Errorf("%s %s leaks a secret: %s", name, verb, out)
			}
		}
	}
	if out := fmt.Sprintf("%+v", *user.Exec); !strings.Contains(out, "Name:TOKEN") || !strings.Contains(out, "Command:plugin") {
		t.Errorf("exec config lost what is not secret: %s", out)
	}
	if out := fmt.Sprintf("%#v", user); !strings.HasPrefix(out, "v1.AuthInfo{") {
		t.Errorf("%%#v names the type wrong: %s", out)
	}

	// Encoding, as a kubeconfig file is written, keeps every secret.
	data, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"SECRET-token", "SECRET-password", "SECRET-id-token", "SECRET-arg", "SECRET-env"} {
		if !strings.Contains(string(data), secret) {
			t.Errorf("json lost %s: %s", secret, data)
		}
	}
}
