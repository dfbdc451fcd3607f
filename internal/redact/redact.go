// Package redact helps configuration types that hold credentials print
// themselves without them, whatever the fmt verb. It is internal to the
// module: rest and transport use it for their Config types.
//
// Layer: a leaf; it imports only the standard library.
package redact

import "fmt"

// Marker replaces a secret in printed output.
const Marker = "--- REDACTED ---"

// Format implements fmt.Formatter for a type that has a redacted text form
// (what %v, %+v, %s, %q, %x and %X format, as for a fmt.Stringer) and a
// redacted Go-syntax form (what %#v prints). Any other verb formats the text
// form as fmt would a string for that verb, so no verb reaches the raw
// fields.
func Format(f fmt.State, verb rune, text, goSyntax func() string) {
	if verb == 'v' && f.Flag('#') {
		_, _ = fmt.Fprint(f, goSyntax())
		return
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), text())
}
