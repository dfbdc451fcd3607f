package compat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/transport"
)

// README: "Printing a rest.Config, rest.TLSClientConfig, transport.Config
// or transport.TLSConfig never shows secrets".

// TestPrintingConfigWhileDebugging: a program prints its config while
// debugging, with the verbs people use. The output shows no secret, and
// the config itself is untouched: it still carries what the program set.
func TestPrintingConfigWhileDebugging(t *testing.T) {
	cfg := &rest.Config{
		Host:            "https://cluster.example",
		Username:        "admin",
		Password:        "secret-password",
		BearerToken:     "secret-token",
		TLSClientConfig: rest.TLSClientConfig{KeyData: []byte("secret-key-data")},
	}
	tcfg := &transport.Config{BearerToken: "secret-token", TLS: transport.TLSConfig{KeyData: []byte("secret-key-data")}}
	printed := []string{
		fmt.Sprintf("%v", cfg), fmt.Sprintf("%+v", *cfg), fmt.Sprintf("%#v", cfg), fmt.Sprint(cfg.TLSClientConfig),
		fmt.Sprintf("%+v", tcfg), fmt.Sprintf("%#v", tcfg.TLS),
	}
	for _, out := range printed {
		for _, secret := range []string{"secret-password", "secret-token", "secret-key-data"} {
			if strings.Contains(out, secret) {
				t.Errorf("printed config shows %q: %s", secret, out)
			}
		}
	}
	copied := rest.CopyConfig(cfg)
	if copied.BearerToken != "secret-token" || copied.Password != "secret-password" || string(copied.KeyData) != "secret-key-data" {
		t.Errorf("the config lost what the program set: %q %q %q", copied.BearerToken, copied.Password, copied.KeyData)
	}
}
