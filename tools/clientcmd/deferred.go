package clientcmd

import (
	"io"
	"sync"

	"k8s.io/klog/v2"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// DeferredLoadingClientConfig is a ClientConfig that loads its kubeconfig on
// first use, so that loading rules and overrides bound to flags can be
// changed until the flags are parsed. The loaded result is kept for later
// calls. When the kubeconfig yields nothing usable (an empty config, or the
// loader's default) and the process runs in a pod, it answers with the
// in-cluster configuration instead.
type DeferredLoadingClientConfig struct {
	loader         ClientConfigLoader
	overrides      *ConfigOverrides
	fallbackReader io.Reader

	// loadingLock guards clientConfig.
	loadingLock  sync.Mutex
	clientConfig ClientConfig

	icc InClusterConfig
}

// NewNonInteractiveDeferredLoadingClientConfig returns a ClientConfig that
// loads through loader on first use and never prompts.
func NewNonInteractiveDeferredLoadingClientConfig(loader ClientConfigLoader, overrides *ConfigOverrides) ClientConfig {
	return &DeferredLoadingClientConfig{loader: loader, overrides: overrides, icc: &inClusterClientConfig{overrides: overrides}}
}

// NewInteractiveDeferredLoadingClientConfig returns a ClientConfig that
// loads through loader on first use and prompts on fallbackReader for
// missing credentials.
func NewInteractiveDeferredLoadingClientConfig(loader ClientConfigLoader, overrides *ConfigOverrides, fallbackReader io.Reader) ClientConfig {
	return &DeferredLoadingClientConfig{loader: loader, overrides: overrides, fallbackReader: fallbackReader, icc: &inClusterClientConfig{overrides: overrides}}
}

// createClientConfig loads the kubeconfig on first use and keeps it as a
// DirectClientConfig; later calls return that one.
func (config *DeferredLoadingClientConfig) createClientConfig() (ClientConfig, error) {
	config.loadingLock.Lock()
	defer config.loadingLock.Unlock()
	if config.clientConfig == nil {
		loaded, err := config.loader.Load()
		if err != nil {
			return nil, err
		}
		// A nil fallbackReader makes this the non-interactive config.
		config.clientConfig = NewInteractiveClientConfig(*loaded, overriddenContext(config.overrides), config.overrides, config.fallbackReader, config.loader)
	}
	return config.clientConfig, nil
}

// overriddenContext is the context the overrides select, if any.
func overriddenContext(overrides *ConfigOverrides) string {
	if overrides == nil {
		return ""
	}
	return overrides.CurrentContext
}

// RawConfig returns the loaded kubeconfig without overrides.
func (config *DeferredLoadingClientConfig) RawConfig() (clientcmdapi.Config, error) {
	direct, err := config.createClientConfig()
	if err != nil {
		return clientcmdapi.Config{}, err
	}
	return direct.RawConfig()
}

// ClientConfig returns the kubeconfig's rest.Config, or the in-cluster one
// when the kubeconfig is empty or gives the loader's default and the
// process runs in a pod.
func (config *DeferredLoadingClientConfig) ClientConfig() (*restclient.Config, error) {
	direct, err := config.createClientConfig()
	if err != nil {
		return nil, err
	}
	restConfig, err := direct.ClientConfig()
	if err != nil {
		if !IsEmptyConfig(err) {
			return nil, err
		}
	} else if restConfig != nil && !config.loader.IsDefaultConfig(restConfig) {
		return restConfig, nil
	}

	if config.icc.Possible() {
		klog.V(4).Infof("Using in-cluster configuration")
		return config.icc.ClientConfig()
	}
	return restConfig, err
}

// Namespace returns the kubeconfig's namespace, unless the process runs in
// a pod and neither the overrides nor the selected context name one, in
// which case it returns the in-cluster namespace.
func (config *DeferredLoadingClientConfig) Namespace() (string, bool, error) {
	direct, err := config.createClientConfig()
	if err != nil {
		return "", false, err
	}
	ns, overridden, err := direct.Namespace()
	useKubeconfig := overridden || (err != nil && !IsEmptyConfig(err)) || !config.icc.Possible()
	if !useKubeconfig && ns != "" {
		// "default" is also what an unset namespace reads as; only a
		// context that names it explicitly keeps it.
		useKubeconfig = ns != "default" || config.contextNamesNamespace(direct)
	}
	if useKubeconfig {
		return ns, overridden, err
	}
	klog.V(4).Infof("Using in-cluster namespace")
	return config.icc.Namespace()
}

// contextNamesNamespace reports whether the context in use (the override's,
// else the current one) sets a namespace in the raw kubeconfig.
func (config *DeferredLoadingClientConfig) contextNamesNamespace(direct ClientConfig) bool {
	raw, err := direct.RawConfig()
	if err != nil {
		return false
	}
	name := raw.CurrentContext
	if o := config.overrides; o != nil && o.CurrentContext != "" {
		name = o.CurrentContext
	}
	selected := raw.Contexts[name]
	return selected != nil && selected.Namespace != ""
}

// ConfigAccess returns the loader.
func (config *DeferredLoadingClientConfig) ConfigAccess() ConfigAccess {
	return config.loader
}
