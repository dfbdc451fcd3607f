// Package redact prints values that hold credentials without the
// credentials, whatever the fmt verb and whether the value or a pointer is
// formatted. rest.Config, transport.Config and their TLS configs, the
// kubeconfig types of tools/clientcmd/api (and its v1) and the
// ExecCredential types of pkg/apis/clientauthentication implement
// fmt.Formatter through it. Serialization (JSON, YAML) is not affected: a
// kubeconfig file still carries its tokens.
//
// Layer: a leaf; it imports only the standard library.
package redact

import (
	"fmt"
	"io"
	"strings"
)

// Marker replaces a secret that is set; an empty secret stays empty so the
// output still shows which credentials are present.
const Marker = "--- REDACTED ---"

// truncatedMarker replaces a client certificate in printed output.
const truncatedMarker = "--- TRUNCATED ---"

// String returns Marker for a non-empty secret s and "" otherwise.
func String(s string) string {
	if s == "" {
		return ""
	}
	return Marker
}

// Bytes returns Marker as bytes for non-nil secret data b and nil
// otherwise.
func Bytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return []byte(Marker)
}

// TLSMaterial replaces non-empty certificate and key data with markers:
// the certificate is elided (it is long, not secret), the key redacted.
func TLSMaterial(cert, key []byte) (printedCert, printedKey []byte) {
	printedCert, printedKey = cert, key
	if len(cert) != 0 {
		printedCert = []byte(truncatedMarker)
	}
	if len(key) != 0 {
		printedKey = []byte(Marker)
	}
	return printedCert, printedKey
}

// Format implements fmt.Formatter for a type that has a redacted text form
// (what %v, %+v, %s, %q, %x and %X format, as for a fmt.Stringer) and a
// redacted Go-syntax form (what %#v prints). Any other verb formats the text
// form as fmt would a string for that verb, so no verb reaches the raw
// fields.
func Format(state fmt.State, verb rune, text, goSyntax func() string) {
	if verb == 'v' && state.Flag('#') {
		_, _ = io.WriteString(state, goSyntax())
		return
	}
	_, _ = fmt.Fprintf(state, fmt.FormatString(state, verb), text())
}

// Stringers is Format for forms already computed.
func Stringers(state fmt.State, verb rune, str, goString string) {
	Format(state, verb, func() string { return str }, func() string { return goString })
}

// Fields prints fields, a copy of the formatted value whose secrets are
// already replaced and whose type has no methods (so that printing it does
// not come back here), as the verb and flags of state ask. In the %#v form,
// which names the type, the copy's type name is replaced by typeName.
func Fields(state fmt.State, verb rune, fields any, typeName string) {
	out := fmt.Sprintf(fmt.FormatString(state, verb), fields)
	if verb == 'v' && state.Flag('#') {
		out = strings.Replace(out, fmt.Sprintf("%T", fields), typeName, 1)
	}
	_, _ = io.WriteString(state, out)
}

// Values returns a copy of m with every value replaced by Marker; the keys
// (setting names) stay readable. A nil map stays nil.
func Values(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = Marker
	}
	return out
}

// Each returns a copy of s with every element replaced by Marker. A nil
// slice stays nil.
func Each(s []string) []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s))
	for i := range out {
		out[i] = Marker
	}
	return out
}
