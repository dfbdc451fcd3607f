package azure

import (
	"errors"

	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/rest"
)

// errRemoved tells users of the old in-tree provider where to go.
var errRemoved = errors.New(`The azure auth plugin has been removed.
Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead.
See https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details`)

func init() {
	if err := rest.RegisterAuthProviderPlugin("azure", newAzureAuthProvider); err != nil {
		klog.Fatalf("Failed to register azure auth plugin: %v", err)
	}
}

func newAzureAuthProvider(string, map[string]string, rest.AuthProviderConfigPersister) (rest.AuthProvider, error) {
	return nil, errRemoved
}
