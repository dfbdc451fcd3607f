package transport

import (
	"fmt"
	"strings"

	"github.com/kubeclient/client-go/internal/redact"
)

// Printing a Config or a TLSConfig never shows a secret: the password, the
// bearer token and the client key are replaced by a marker, the client
// certificate is elided. client-go's transport.Config has no printing
// methods and prints everything. Both types implement fmt.Formatter, so
// values, pointers, nested values and every verb are covered. json.Marshal
// fails on a Config, as in client-go (it holds functions).

var (
	_ fmt.Formatter = Config{}
	_ fmt.Formatter = TLSConfig{}
)

// plainConfig and plainTLSConfig have the fields of Config and TLSConfig
// and are printed with fmt's own rules.
type (
	plainConfig    Config
	plainTLSConfig TLSConfig
)

// Format prints the Config in Go syntax with its secrets hidden, whatever
// the verb.
func (c Config) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.redacted, c.redacted)
}

func (c Config) redacted() string {
	p := plainConfig(c)
	if p.Password != "" {
		p.Password = redact.Marker
	}
	if p.BearerToken != "" {
		p.BearerToken = redact.Marker
	}
	// The TLS field prints itself redacted.
	return "transport.Config" + strings.TrimPrefix(fmt.Sprintf("%#v", p), "transport.plainConfig")
}

// Format prints the TLS settings in Go syntax with the key redacted and the
// certificate elided, whatever the verb.
func (c TLSConfig) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.redacted, c.redacted)
}

func (c TLSConfig) redacted() string {
	p := plainTLSConfig(c)
	p.CertData, p.KeyData = redact.TLSMaterial(p.CertData, p.KeyData)
	return "transport.TLSConfig" + strings.TrimPrefix(fmt.Sprintf("%#v", p), "transport.plainTLSConfig")
}
