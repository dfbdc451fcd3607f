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

// truncatedMarker replaces a client certificate in printed output.
const truncatedMarker = "--- TRUNCATED ---"

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
