package v1

import (
	"fmt"

	"github.com/kubeclient/client-go/internal/redact"
)

// The kubeconfig types that hold credentials print them as
// "--- REDACTED ---" for every fmt verb, value or pointer; client-go prints
// them in clear text. Encoding (JSON, YAML) still writes them.
var (
	_ fmt.Formatter = AuthInfo{}
	_ fmt.Formatter = AuthProviderConfig{}
	_ fmt.Formatter = ExecConfig{}
)

// Format prints the AuthInfo with its token, password and client key data
// redacted; its auth-provider and exec settings print redacted as their
// own types do.
func (a AuthInfo) Format(state fmt.State, verb rune) {
	type authInfo AuthInfo // the fields without the methods
	fields := authInfo(a)
	fields.Token = redact.String(fields.Token)
	fields.Password = redact.String(fields.Password)
	fields.ClientKeyData = redact.Bytes(fields.ClientKeyData)
	redact.Fields(state, verb, fields, "v1.AuthInfo")
}

// Format prints the plugin name and setting names with the setting values
// redacted: they are tokens and client secrets.
func (c AuthProviderConfig) Format(state fmt.State, verb rune) {
	type authProviderConfig AuthProviderConfig
	fields := authProviderConfig(c)
	fields.Config = redact.Values(fields.Config)
	redact.Fields(state, verb, fields, "v1.AuthProviderConfig")
}

// Format prints the exec plugin with its arguments and the values of its
// environment redacted.
func (c ExecConfig) Format(state fmt.State, verb rune) {
	type execConfig ExecConfig
	fields := execConfig(c)
	fields.Args = redact.Each(fields.Args)
	if fields.Env != nil {
		fields.Env = make([]ExecEnvVar, len(c.Env))
		for i, v := range c.Env {
			fields.Env[i] = ExecEnvVar{Name: v.Name, Value: redact.String(v.Value)}
		}
	}
	redact.Fields(state, verb, fields, "v1.ExecConfig")
}
