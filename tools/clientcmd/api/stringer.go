package api

import (
	"fmt"
)

const redactedMarker = "--- REDACTED ---"

var (
	_ fmt.Stringer   = AuthProviderConfig{}
	_ fmt.GoStringer = AuthProviderConfig{}
	_ fmt.Stringer   = ExecConfig{}
	_ fmt.GoStringer = ExecConfig{}
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
