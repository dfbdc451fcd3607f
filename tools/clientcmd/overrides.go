package clientcmd

import (
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// ConfigOverrides holds values that take precedence over what the loaded
// Config says, typically filled from command-line flags. Unlike a Config it
// holds at most one user, one cluster and one context.
type ConfigOverrides struct {
	AuthInfo clientcmdapi.AuthInfo
	// ClusterDefaults fill in the cluster before the kubeconfig's entry is
	// laid on top, so they lose to anything the file sets.
	ClusterDefaults clientcmdapi.Cluster
	ClusterInfo     clientcmdapi.Cluster
	Context         clientcmdapi.Context
	CurrentContext  string
	Timeout         string
}
