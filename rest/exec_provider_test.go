package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// execPluginScript answers with a token that tells whether the cluster
// information reached the plugin through KUBERNETES_EXEC_INFO.
const execPluginScript = `#!/bin/sh
case "$KUBERNETES_EXEC_INFO" in
  *'"server":"http'*) tok=with-cluster-info ;;
  *) tok=without-cluster-info ;;
esac
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$tok"
`

func TestExecProviderSuppliesToken(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to run the credential plugin")
	}
	plugin := filepath.Join(t.TempDir(), "credential-plugin")
	if err := os.WriteFile(plugin, []byte(execPluginScript), 0o755); err != nil {
		t.Fatal(err)
	}
	auth := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth <- r.Header.Get("Authorization")
		writeJSON(t, w, 200, &corev1.PodList{})
	}))
	defer srv.Close()

	for _, tc := range []struct {
		provideClusterInfo bool
		want               string
	}{
		{false, "Bearer without-cluster-info"},
		{true, "Bearer with-cluster-info"},
	} {
		c := coreV1Client(t, srv, func(c *Config) {
			c.ExecProvider = &clientcmdapi.ExecConfig{
				Command:            plugin,
				APIVersion:         "client.authentication.k8s.io/v1",
				InteractiveMode:    clientcmdapi.NeverExecInteractiveMode,
				ProvideClusterInfo: tc.provideClusterInfo,
			}
		})
		if err := c.Get().Resource("pods").Do(context.Background()).Error(); err != nil {
			t.Fatalf("request with exec credentials: %v", err)
		}
		if got := <-auth; got != tc.want {
			t.Errorf("ProvideClusterInfo=%v: Authorization = %q, want %q", tc.provideClusterInfo, got, tc.want)
		}
	}
}
