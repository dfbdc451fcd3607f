package compat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeclient/client-go/tools/clientcmd"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// README: "Printing the kubeconfig types of tools/clientcmd/api ...
// redacts tokens ... Serialization is unchanged: a kubeconfig file still
// carries its tokens."

// TestPrintingKubeconfig: a program prints a loaded kubeconfig's user
// while debugging, then saves the kubeconfig. The print shows no token;
// the saved bytes carry it, as on client-go.
func TestPrintingKubeconfig(t *testing.T) {
	cfg := clientcmdapi.NewConfig()
	cfg.AuthInfos["me"] = &clientcmdapi.AuthInfo{Token: "secret-token", Password: "secret-password"}
	for _, out := range []string{fmt.Sprintf("%v", cfg.AuthInfos["me"]), fmt.Sprintf("%+v", *cfg.AuthInfos["me"]), fmt.Sprintf("%#v", cfg)} {
		if strings.Contains(out, "secret-token") || strings.Contains(out, "secret-password") {
			t.Errorf("print shows a secret: %s", out)
		}
	}
	saved, err := clientcmd.Write(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), "secret-token") {
		t.Errorf("serialized kubeconfig lost its token:\n%s", saved)
	}
}
