package gcp

import (
	"errors"

	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/rest"
)

// errRemoved tells users of the old in-tree provider where to go.
var errRemoved = errors.New(`The gcp auth plugin has been removed.
Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead.
See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details`)

func init() {
	if err := rest.RegisterAuthProviderPlugin("gcp", newGCPAuthProvider); err != nil {
		klog.Fatalf("Failed to register gcp auth plugin: %v", err)
	}
}

func newGCPAuthProvider(string, map[string]string, rest.AuthProviderConfigPersister) (rest.AuthProvider, error) {
	return nil, errRemoved
}
