package clientauthentication

import (
	"fmt"

	"github.com/kubeclient/client-go/internal/redact"
)

var _ fmt.Formatter = ExecCredentialStatus{}

// Format prints the status with its token and client key data replaced by
// "--- REDACTED ---" (empty ones stay empty), for every fmt verb, value or
// pointer, so that an ExecCredential in a log or error message does not
// leak them; client-go prints them in clear text. Encoding is not affected.
func (s ExecCredentialStatus) Format(state fmt.State, verb rune) {
	type execCredentialStatus ExecCredentialStatus // the fields without the methods
	fields := execCredentialStatus(s)
	fields.Token = redact.String(fields.Token)
	fields.ClientKeyData = redact.String(fields.ClientKeyData)
	redact.Fields(state, verb, fields, "clientauthentication.ExecCredentialStatus")
}
