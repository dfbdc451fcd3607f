package transport

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestConfigPrintingRedactsEverywhere: a transport.Config printed as a
// value, a pointer or nested, with any verb, shows none of its secrets.
// client-go's transport.Config has no printing methods and shows them all.
func TestConfigPrintingRedactsEverywhere(t *testing.T) {
	secrets := map[string]string{
		"Password":    "hunter2-password",
		"BearerToken": "secret-bearer-token",
		"KeyData":     "private-key-bytes",
		"CertData":    "client-cert-bytes",
	}
	cfg := Config{
		UserAgent:   "agent/1",
		Username:    "admin",
		Password:    secrets["Password"],
		BearerToken: secrets["BearerToken"],
		TLS: TLSConfig{
			ServerName: "api.example.com",
			CertData:   []byte(secrets["CertData"]),
			KeyData:    []byte(secrets["KeyData"]),
		},
	}
	forms := map[string]any{
		"value":           cfg,
		"pointer":         &cfg,
		"in a struct":     struct{ C Config }{cfg},
		"in a slice":      []*Config{&cfg},
		"TLS value":       cfg.TLS,
		"TLS pointer":     &cfg.TLS,
		"TLS in a struct": struct{ T TLSConfig }{cfg.TLS},
	}
	for formName, form := range forms {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3v", "%t"} {
			out := fmt.Sprintf(verb, form)
			for field, secret := range secrets {
				b := []byte(secret)
				for _, leaked := range []string{
					secret,
					strings.Trim(fmt.Sprintf("%v", b), "[]"),
					strings.Trim(fmt.Sprintf("%#v", b), "[]uint8{}"),
					fmt.Sprintf("%x", b),
				} {
					if strings.Contains(out, leaked) {
						t.Errorf("%s printed with %s shows %s: %s", formName, verb, field, out)
					}
				}
			}
		}
	}
	got := fmt.Sprintf("%v", cfg)
	for _, want := range []string{`transport.Config{UserAgent:"agent/1"`, `Username:"admin"`, `Password:"--- REDACTED ---"`, `TLS:transport.TLSConfig{`, `ServerName:"api.example.com"`} {
		if !strings.Contains(got, want) {
			t.Errorf("printed Config lacks %s: %s", want, got)
		}
	}

	// json.Marshal cannot encode a Config (it holds functions), as in
	// client-go, and shows no secret.
	out, err := json.Marshal(cfg)
	if err == nil {
		t.Errorf("json.Marshal(Config) succeeded: %s", out)
	}
	for _, secret := range secrets {
		if strings.Contains(string(out), secret) || strings.Contains(string(out), base64.StdEncoding.EncodeToString([]byte(secret))) {
			t.Errorf("json.Marshal shows %q", secret)
		}
	}
}
