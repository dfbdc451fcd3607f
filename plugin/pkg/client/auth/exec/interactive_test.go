package exec

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
)

// TestInteractivePluginGetsStdin runs the plugin as if standard input were
// a terminal: the plugin must be told so and must be able to read it.
func TestInteractivePluginGetsStdin(t *testing.T) {
	tests := []struct {
		mode            api.ExecInteractiveMode
		terminal        bool
		wantToken       string
		wantInteractive bool
	}{
		{api.IfAvailableExecInteractiveMode, true, "stdin:yes", true},
		{api.AlwaysExecInteractiveMode, true, "stdin:yes", true},
		{api.IfAvailableExecInteractiveMode, false, "stdin:", false},
		{api.NeverExecInteractiveMode, true, "stdin:", false},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode)+map[bool]string{true: "/terminal", false: "/pipe"}[tt.terminal], func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "info.json")
			c := pluginConfig(t, "stdin", v1APIVersion, api.ExecEnvVar{Name: "PLUGIN_INFO_OUT", Value: out})
			c.InteractiveMode = tt.mode
			a, err := newAuthenticator(&authenticatorCache{byKey: map[string]*Authenticator{}}, func(int) bool { return tt.terminal }, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			a.stdin = strings.NewReader("yes\n")
			a.stderr = nil
			creds, err := a.getCreds(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if creds.token != tt.wantToken {
				t.Errorf("token = %q, want %q", creds.token, tt.wantToken)
			}
			raw, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var info struct {
				Spec struct {
					Interactive bool `json:"interactive"`
				} `json:"spec"`
			}
			if err := json.Unmarshal(raw, &info); err != nil {
				t.Fatal(err)
			}
			if info.Spec.Interactive != tt.wantInteractive {
				t.Errorf("spec.interactive = %t, want %t", info.Spec.Interactive, tt.wantInteractive)
			}
		})
	}
}
