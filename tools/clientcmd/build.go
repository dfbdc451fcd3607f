package clientcmd

import (
	"k8s.io/klog/v2"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// BuildConfigFromFlags builds a rest.Config from a --master URL and a
// --kubeconfig path, as cluster components take them. With neither given it
// tries the in-cluster configuration first (warning that this may not work)
// and, failing that, the default loading of an empty explicit path. The
// master URL, when set, overrides the kubeconfig's server.
func BuildConfigFromFlags(masterUrl, kubeconfigPath string) (*restclient.Config, error) {
	if kubeconfigPath == "" && masterUrl == "" {
		if inCluster, err := guessInCluster(); err == nil {
			return inCluster, nil
		}
	}
	return loadWithMaster(&ClientConfigLoadingRules{ExplicitPath: kubeconfigPath}, masterUrl)
}

// guessInCluster is what BuildConfigFromFlags tries without flags: the
// in-cluster configuration, with a warning that it is a guess and another
// when it fails.
func guessInCluster() (*restclient.Config, error) {
	klog.Warning("Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.")
	config, err := restclient.InClusterConfig()
	if err != nil {
		klog.Warning("error creating inClusterConfig, falling back to default config: ", err)
	}
	return config, err
}

// BuildConfigFromKubeconfigGetter builds a rest.Config from the Config
// kubeconfigGetter returns, with masterUrl, when set, overriding its server.
func BuildConfigFromKubeconfigGetter(masterUrl string, kubeconfigGetter KubeconfigGetter) (*restclient.Config, error) {
	return loadWithMaster(&ClientConfigGetter{kubeconfigGetter: kubeconfigGetter}, masterUrl)
}

// loadWithMaster is the rest.Config loader yields, its server replaced by
// masterURL when that is set.
func loadWithMaster(loader ClientConfigLoader, masterURL string) (*restclient.Config, error) {
	overrides := &ConfigOverrides{ClusterInfo: clientcmdapi.Cluster{Server: masterURL}}
	return NewNonInteractiveDeferredLoadingClientConfig(loader, overrides).ClientConfig()
}
