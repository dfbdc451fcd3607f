package api

import (
	"fmt"

	"github.com/kubeclient/client-go/internal/redact"
)

const redactedMarker = redact.Marker

var (
	_ fmt.Stringer   = AuthProviderConfig{}
	_ fmt.GoStringer = AuthProviderConfig{}
	_ fmt.Stringer   = ExecConfig{}
	_ fmt.GoStringer = ExecConfig{}

	_ fmt.Formatter = AuthInfo{}
	_ fmt.Formatter = AuthProviderConfig{}
	_ fmt.Formatter = ExecConfig{}
)

// String prints the provider name but hides its settings, which often hold
// tokens, so that logging the value cannot leak them.
func (c AuthProviderConfig) String() string {
	settings := "<nil>"
	if c.Config != nil {
		settings = redactedMarker
	}
	return fmt.Sprintf("api.AuthProviderConfig{Name: %q, Config: map[string]string{%s}}", c.Name, settings)
}

// GoString is String, so %#v hides the settings as well.
func (c AuthProviderConfig) GoString() string { return c.String() }

// String prints the plugin command and options but hides its arguments,
// environment and per-cluster config, which may hold secrets.
func (c ExecConfig) String() string {
	var args []string
	if len(c.Args) != 0 {
		args = []string{redactedMarker}
	}
	env := "[]ExecEnvVar(nil)"
	if len(c.Env) != 0 {
		env = "[]ExecEnvVar{" + redactedMarker + "}"
	}
	cfg := "runtime.Object(nil)"
	if c.Config != nil {
		cfg = "runtime.Object(" + redactedMarker + ")"
	}
	return fmt.Sprintf("api.ExecConfig{Command: %q, Args: %#v, Env: %s, APIVersion: %q, ProvideClusterInfo: %t, Config: %s, StdinUnavailable: %t}",
		c.Command, args, env, c.APIVersion, c.ProvideClusterInfo, cfg, c.StdinUnavailable)
}

// GoString is String, so %#v hides the secrets as well.
func (c ExecConfig) GoString() string { return c.String() }

// Format prints the AuthInfo with its token, password and client key data
// replaced by "--- REDACTED ---" (empty ones stay empty), for every verb and
// for the value and a pointer alike; the auth-provider settings and the exec
// arguments and environment print redacted as their own types do. client-go
// prints an AuthInfo's secrets in clear text. Serializing a Config (Write,
// WriteToFile) still writes them.
func (a AuthInfo) Format(state fmt.State, verb rune) {
	type authInfo AuthInfo // the fields without the methods
	fields := authInfo(a)
	fields.Token = redact.String(fields.Token)
	fields.Password = redact.String(fields.Password)
	fields.ClientKeyData = redact.Bytes(fields.ClientKeyData)
	redact.Fields(state, verb, fields, "api.AuthInfo")
}

// Format prints String for every verb but %#v, which prints GoString, so
// that no verb reaches the settings.
func (c AuthProviderConfig) Format(state fmt.State, verb rune) {
	redact.Stringers(state, verb, c.String(), c.GoString())
}

// Format prints String for every verb but %#v, which prints GoString, so
// that no verb reaches the arguments, environment or config.
func (c ExecConfig) Format(state fmt.State, verb rune) {
	redact.Stringers(state, verb, c.String(), c.GoString())
}
