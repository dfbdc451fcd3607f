package auth

import (
	"strings"
	"testing"

	"github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// Importing this package registers every provider; each one answers
// GetAuthProvider with its own error for an empty config.
func TestProvidersRegistered(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"oidc", []string{"Must provide idp-issuer-url"}},
		{"azure", []string{"The azure auth plugin has been removed", "https://github.com/Azure/kubelogin"}},
		{"gcp", []string{"The gcp auth plugin has been removed", "gke-gcloud-auth-plugin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := rest.GetAuthProvider("https://example.com", &clientcmdapi.AuthProviderConfig{Name: tt.name, Config: map[string]string{}}, nil)
			if err == nil {
				t.Fatalf("GetAuthProvider(%s) = %v, want error", tt.name, p)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
