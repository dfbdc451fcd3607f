package framework

import (
	"encoding/json"
	"fmt"
	"os"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// execPluginTokenEnv switches a test binary into exec credential plugin
// mode; its value is the token the plugin hands out.
const execPluginTokenEnv = "KUBECLIENT_INTEGRATION_EXEC_PLUGIN_TOKEN"

// execPluginAPIVersion is the client.authentication.k8s.io version the
// plugin speaks.
const execPluginAPIVersion = "client.authentication.k8s.io/v1"

// ExecPluginConfig returns an exec provider configuration that runs the
// current test binary as a credential plugin handing out token. The test
// package must call RunMain from its TestMain.
func ExecPluginConfig(token string) (*clientcmdapi.ExecConfig, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return &clientcmdapi.ExecConfig{
		Command:         self,
		Args:            []string{"-test.run=^$"},
		Env:             []clientcmdapi.ExecEnvVar{{Name: execPluginTokenEnv, Value: token}},
		APIVersion:      execPluginAPIVersion,
		InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
	}, nil
}

// runExecPlugin writes an ExecCredential carrying the configured token. It
// insists on the KUBERNETES_EXEC_INFO the client must pass, so that a
// client that omits it fails to authenticate.
func runExecPlugin() int {
	var info struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	raw := os.Getenv("KUBERNETES_EXEC_INFO")
	if err := json.Unmarshal([]byte(raw), &info); err != nil {
		fmt.Fprintf(os.Stderr, "exec plugin: KUBERNETES_EXEC_INFO %q: %v\n", raw, err)
		return 1
	}
	if info.APIVersion != execPluginAPIVersion || info.Kind != "ExecCredential" {
		fmt.Fprintf(os.Stderr, "exec plugin: KUBERNETES_EXEC_INFO is %s %s, want %s ExecCredential\n",
			info.APIVersion, info.Kind, execPluginAPIVersion)
		return 1
	}
	cred := map[string]any{
		"apiVersion": execPluginAPIVersion,
		"kind":       "ExecCredential",
		"status":     map[string]any{"token": os.Getenv(execPluginTokenEnv)},
	}
	if err := json.NewEncoder(os.Stdout).Encode(cred); err != nil {
		return 1
	}
	return 0
}
