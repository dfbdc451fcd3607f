package azure

import (
	"strings"
	"testing"

	"github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

func TestProviderReportsRemoval(t *testing.T) {
	for _, cfg := range []map[string]string{nil, {"access-token": "x"}} {
		p, err := rest.GetAuthProvider("https://example.com", &clientcmdapi.AuthProviderConfig{Name: "azure", Config: cfg}, nil)
		if p != nil || err == nil {
			t.Fatalf("GetAuthProvider = %v, %v; want the removal error", p, err)
		}
		if !strings.HasPrefix(err.Error(), "The azure auth plugin has been removed.") {
			t.Errorf("error = %q", err)
		}
	}
}
