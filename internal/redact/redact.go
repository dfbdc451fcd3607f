// Package redact prints values that hold credentials without the
// credentials, whatever the fmt verb and whether the value or a pointer is
// formatted. The kubeconfig types of tools/clientcmd/api (and its v1) and
// the ExecCredential types of pkg/apis/clientauthentication implement
// fmt.Formatter through it. Serialization (JSON, YAML) is not affected: a
// kubeconfig file still carries its tokens.
package redact

import (
	"fmt"
	"io"
	"strings"
)

// Marker replaces a secret that is set; an empty secret stays empty so the
// output still shows which credentials are present.
const Marker = "--- REDACTED ---"

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

// Fields prints fields, a copy of the formatted value whose secrets are
// already replaced and whose type has no methods (so that printing it does
// not come back here), as the verb and flags of state ask. In the %#v form,
// which names the type, the copy's type name is replaced by typeName.
func Fields(state fmt.State, verb rune, fields any, typeName string) {
	out := fmt.Sprintf(fmt.FormatString(state, verb), fields)
	if verb == 'v' && state.Flag('#') {
		out = strings.Replace(out, fmt.Sprintf("%T", fields), typeName, 1)
	}
	io.WriteString(state, out)
}

// Stringers prints a value that has redacting String and GoString forms
// with any verb: %#v prints goString, every other verb formats str (so %d
// or %x cannot reach the fields behind it).
func Stringers(state fmt.State, verb rune, str, goString string) {
	if verb == 'v' && state.Flag('#') {
		io.WriteString(state, goString)
		return
	}
	fmt.Fprintf(state, fmt.FormatString(state, verb), str)
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
