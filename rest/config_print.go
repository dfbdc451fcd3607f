package rest

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/internal/redact"
)

// Printing a Config or a TLSClientConfig never shows a secret: the password,
// the bearer token, the client key (and the certificate, elided), the auth
// config persister and the exec plugin's configuration object are replaced
// by markers. client-go redacts only when a *Config is printed with %v, %s
// or %#v; here a Config value, a Config nested in another value, and every
// fmt verb are redacted too (Config and TLSClientConfig implement
// fmt.Formatter). json.Marshal fails on a Config, as in client-go (it holds
// functions).

var (
	_ fmt.Stringer   = new(Config)
	_ fmt.GoStringer = new(Config)
	_ fmt.Formatter  = Config{}
	_ fmt.Stringer   = TLSClientConfig{}
	_ fmt.GoStringer = TLSClientConfig{}
	_ fmt.Formatter  = TLSClientConfig{}
)

// redactedPersister stands in for an AuthProviderConfigPersister when a
// Config is printed.
type redactedPersister struct{ AuthProviderConfigPersister }

func (redactedPersister) String() string {
	return "rest.AuthProviderConfigPersister(" + redact.Marker + ")"
}

func (p redactedPersister) GoString() string { return p.String() }

// redactedObject stands in for the exec plugin's free-form configuration
// when a Config is printed.
type redactedObject struct{ runtime.Object }

func (redactedObject) String() string { return "runtime.Object(" + redact.Marker + ")" }

func (o redactedObject) GoString() string { return o.String() }

// plainConfig has Config's fields and is printed with fmt's own rules. Its
// pointer methods are never called: they only keep the formatting methods
// of the embedded TLSClientConfig from being promoted to plainConfig values,
// which would print the TLS settings alone.
type plainConfig Config

func (*plainConfig) String() string         { return "" }
func (*plainConfig) GoString() string       { return "" }
func (*plainConfig) Format(fmt.State, rune) {}

// String prints the Config in Go syntax with the password, bearer token,
// key data, persister and exec plugin configuration hidden, so a Config can
// be logged.
func (c *Config) String() string {
	if c == nil {
		return "<nil>"
	}
	p := plainConfig(*CopyConfig(c))
	if p.Password != "" {
		p.Password = redact.Marker
	}
	if p.BearerToken != "" {
		p.BearerToken = redact.Marker
	}
	if p.AuthConfigPersister != nil {
		p.AuthConfigPersister = redactedPersister{p.AuthConfigPersister}
	}
	if p.ExecProvider != nil && p.ExecProvider.Config != nil {
		p.ExecProvider.Config = redactedObject{p.ExecProvider.Config}
	}
	// The embedded TLSClientConfig prints itself redacted.
	return "&rest.Config" + strings.TrimPrefix(fmt.Sprintf("%#v", p), "rest.plainConfig")
}

// GoString is String: it keeps %#v from leaking secrets.
func (c *Config) GoString() string { return c.String() }

// Format prints the Config redacted whatever the verb, and whether a Config
// or a *Config is printed: %#v gives GoString, the other verbs format
// String.
func (c Config) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.String, c.GoString)
}

// sanitizedTLSClientConfig has TLSClientConfig's fields without its methods; its
// name shows in the printed form, as in client-go.
type sanitizedTLSClientConfig TLSClientConfig

// String prints the TLS settings with the key redacted and the certificate
// elided.
func (c TLSClientConfig) String() string {
	p := sanitizedTLSClientConfig(c)
	p.CertData, p.KeyData = redact.TLSMaterial(p.CertData, p.KeyData)
	return fmt.Sprintf("%#v", p)
}

// GoString is String: it keeps %#v from leaking the key.
func (c TLSClientConfig) GoString() string { return c.String() }

// Format prints the TLS settings redacted whatever the verb.
func (c TLSClientConfig) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.String, c.GoString)
}
