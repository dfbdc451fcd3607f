package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// secretAuthInfo returns a user whose every secret contains "SECRET".
func secretAuthInfo() AuthInfo {
	return AuthInfo{
		Username:      "alice",
		Password:      "SECRET-password",
		Token:         "SECRET-token",
		ClientKeyData: []byte("SECRET-key"),
		AuthProvider:  &AuthProviderConfig{Name: "oidc", Config: map[string]string{"id-token": "SECRET-id-token"}},
		Exec: &ExecConfig{Command: "plugin", Args: []string{"--token=SECRET-arg"},
			Env: []ExecEnvVar{{Name: "TOKEN", Value: "SECRET-env"}}},
	}
}

// TestPrintingRedactsSecrets formats every config type that holds
// credentials with every verb, as a value, a pointer and inside a Config.
// client-go prints AuthInfo's token, password and key data in clear text
// (and an exec config's arguments under %d).
func TestPrintingRedactsSecrets(t *testing.T) {
	user := secretAuthInfo()
	config := NewConfig()
	config.AuthInfos["alice"] = &user
	forms := map[string]any{
		"AuthInfo":            user,
		"*AuthInfo":           &user,
		"Config":              *config,
		"*Config":             config,
		"AuthProviderConfig":  *user.AuthProvider,
		"*AuthProviderConfig": user.AuthProvider,
		"ExecConfig":          *user.Exec,
		"*ExecConfig":         user.Exec,
		"[]AuthInfo":          []AuthInfo{user},
		"map of *AuthInfo":    config.AuthInfos,
	}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3v", "%T %v"}
	for name, value := range forms {
		for _, verb := range verbs {
			out := fmt.Sprintf(verb, value, value)
			if strings.Contains(out, "SECRET") {
				t.Errorf("%s %s leaks a secret: %s", name, verb, out)
			}
		}
	}

	// What is not secret stays readable.
	for verb, want := range map[string]string{
		"%v":  "alice",
		"%+v": "Username:alice Password:--- REDACTED ---",
		"%#v": `api.AuthInfo{LocationOfOrigin:""`,
		"%s":  "--- REDACTED ---",
	} {
		if out := fmt.Sprintf(verb, user); !strings.Contains(out, want) {
			t.Errorf("%s: %s does not contain %q", verb, out, want)
		}
	}
	// An empty secret stays empty, so the output shows what is set.
	if out := fmt.Sprintf("%+v", AuthInfo{Username: "bob"}); strings.Contains(out, "REDACTED") {
		t.Errorf("empty secrets printed as redacted: %s", out)
	}
	// A nil pointer prints as such.
	if out := fmt.Sprintf("%v", (*AuthInfo)(nil)); out != "<nil>" {
		t.Errorf("nil *AuthInfo printed %q", out)
	}
}

// TestSerializationKeepsSecrets checks that redaction is only for printing:
// encoding a user (as Write does for a kubeconfig) keeps its token.
func TestSerializationKeepsSecrets(t *testing.T) {
	user := secretAuthInfo()
	data, err := json.Marshal(user)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"SECRET-token", "SECRET-password", "SECRET-id-token", "SECRET-env"} {
		if !strings.Contains(string(data), secret) {
			t.Errorf("json lost %s: %s", secret, data)
		}
	}
	if user.Token != "SECRET-token" {
		t.Errorf("formatting changed the value: %q", user.Token)
	}
}
