package v1

import (
	"fmt"
	"strings"
	"testing"
)

// TestPrintingRedactsSecrets formats an ExecCredential and its status with
// every verb, value and pointer; client-go prints the token and key.
func TestPrintingRedactsSecrets(t *testing.T) {
	status := ExecCredentialStatus{Token: "SECRET-token", ClientCertificateData: "cert", ClientKeyData: "SECRET-key"}
	cred := ExecCredential{Status: &status}
	for name, value := range map[string]any{"status": status, "*status": &status, "ExecCredential": cred, "*ExecCredential": &cred} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			if out := fmt.Sprintf(verb, value); strings.Contains(out, "SECRET") {
				t.Errorf("%s %s leaks a secret: %s", name, verb, out)
			}
		}
	}
	if out := fmt.Sprintf("%+v", status); !strings.Contains(out, "ClientCertificateData:cert") {
		t.Errorf("status lost what is not secret: %s", out)
	}
	if out := fmt.Sprintf("%#v", status); !strings.HasPrefix(out, "v1.ExecCredentialStatus{") {
		t.Errorf("%%#v names the type wrong: %s", out)
	}
}
