package clientcmd

import (
	"cmp"
	"fmt"
	"io"
	"os"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// Legacy defaults.
var (
	// ClusterDefaults is the cluster used when nothing else names a server:
	// $KUBERNETES_MASTER or http://localhost:8080. Deprecated.
	ClusterDefaults = clientcmdapi.Cluster{Server: legacyDefaultServer()}
	// DefaultClientConfig is an empty config with ClusterDefaults applied,
	// the historical fallback of this package. Deprecated.
	DefaultClientConfig = DirectClientConfig{
		config:       *clientcmdapi.NewConfig(),
		overrides:    &ConfigOverrides{ClusterDefaults: ClusterDefaults},
		configAccess: NewDefaultClientConfigLoadingRules(),
	}
)

// legacyDefaultServer returns $KUBERNETES_MASTER, or the historical insecure
// local address.
func legacyDefaultServer() string {
	if server := os.Getenv("KUBERNETES_MASTER"); len(server) > 0 {
		return server
	}
	return "http://localhost:8080"
}

// ClientConfig produces client configuration from some source of
// kubeconfig data.
type ClientConfig interface {
	// RawConfig returns the kubeconfig as loaded, before overrides.
	RawConfig() (clientcmdapi.Config, error)
	// ClientConfig returns the rest.Config to talk to the selected cluster.
	ClientConfig() (*restclient.Config, error)
	// Namespace returns the namespace to work in, and whether an override
	// chose it.
	Namespace() (string, bool, error)
	// ConfigAccess returns where the config is read from and written to.
	ConfigAccess() ConfigAccess
}

// OverridingClientConfig is a ClientConfig that can also show the raw
// config with its overrides applied.
type OverridingClientConfig interface {
	ClientConfig
	// MergedRawConfig returns RawConfig with the overrides applied to the
	// selected context, user and cluster.
	MergedRawConfig() (clientcmdapi.Config, error)
}

// PersistAuthProviderConfigForUser returns the persister that stores the
// auth-provider state of the named user.
type PersistAuthProviderConfigForUser func(user string) restclient.AuthProviderConfigPersister

// promptedCredentials remembers what the user typed at a prompt so that it
// is asked only once.
type promptedCredentials struct {
	username string
	password string `datapolicy:"password"`
}

// DirectClientConfig is a ClientConfig over an in-memory Config: it selects
// a context (the given name, else the overrides' current context, else the
// config's), lays the overrides on top and, when interactive, prompts on
// fallbackReader for credentials the config lacks.
type DirectClientConfig struct {
	config         clientcmdapi.Config
	contextName    string
	overrides      *ConfigOverrides
	fallbackReader io.Reader
	configAccess   ConfigAccess
	// prompted caches credentials read from fallbackReader.
	prompted promptedCredentials
}

// NewDefaultClientConfig returns a ClientConfig over config using its
// current context, persisting through the default loading rules.
func NewDefaultClientConfig(config clientcmdapi.Config, overrides *ConfigOverrides) OverridingClientConfig {
	return &DirectClientConfig{config: config, contextName: config.CurrentContext, overrides: overrides, configAccess: NewDefaultClientConfigLoadingRules()}
}

// NewNonInteractiveClientConfig returns a ClientConfig over config using the
// context contextName, which never prompts.
func NewNonInteractiveClientConfig(config clientcmdapi.Config, contextName string, overrides *ConfigOverrides, configAccess ConfigAccess) OverridingClientConfig {
	return &DirectClientConfig{config: config, contextName: contextName, overrides: overrides, configAccess: configAccess}
}

// NewInteractiveClientConfig returns a ClientConfig over config using the
// context contextName that prompts on fallbackReader for a username and
// password when the config and overrides identify no user.
func NewInteractiveClientConfig(config clientcmdapi.Config, contextName string, overrides *ConfigOverrides, fallbackReader io.Reader, configAccess ConfigAccess) OverridingClientConfig {
	return &DirectClientConfig{config: config, contextName: contextName, overrides: overrides, fallbackReader: fallbackReader, configAccess: configAccess}
}

// NewClientConfigFromBytes decodes kubeconfig bytes and returns a ClientConfig
// over them using their current context. It has no ConfigAccess.
func NewClientConfigFromBytes(configBytes []byte) (OverridingClientConfig, error) {
	config, err := Load(configBytes)
	if err != nil {
		return nil, err
	}
	return &DirectClientConfig{config: *config, overrides: &ConfigOverrides{}}, nil
}

// RESTConfigFromKubeConfig decodes kubeconfig bytes and returns the
// rest.Config of their current context.
func RESTConfigFromKubeConfig(configBytes []byte) (*restclient.Config, error) {
	clientConfig, err := NewClientConfigFromBytes(configBytes)
	if err != nil {
		return nil, err
	}
	return clientConfig.ClientConfig()
}

// RawConfig returns the Config as given, without overrides.
func (config *DirectClientConfig) RawConfig() (clientcmdapi.Config, error) {
	return config.config, nil
}

// MergedRawConfig returns a copy of the Config in which the selected
// context, user and cluster are replaced by their overridden versions and
// the selected context is current.
func (config *DirectClientConfig) MergedRawConfig() (clientcmdapi.Config, error) {
	if err := config.ConfirmUsable(); err != nil {
		return clientcmdapi.Config{}, err
	}
	merged := config.config.DeepCopy()
	if merged.AuthInfos == nil {
		merged.AuthInfos = map[string]*clientcmdapi.AuthInfo{}
	}
	if merged.Contexts == nil {
		merged.Contexts = map[string]*clientcmdapi.Context{}
	}
	if merged.Clusters == nil {
		merged.Clusters = map[string]*clientcmdapi.Cluster{}
	}

	authInfo, err := config.effectiveAuthInfo()
	if err != nil {
		return clientcmdapi.Config{}, err
	}
	authInfoName, _ := config.authInfoNameInUse()
	merged.AuthInfos[authInfoName] = &authInfo

	context, err := config.effectiveContext()
	if err != nil {
		return clientcmdapi.Config{}, err
	}
	contextName, _ := config.contextNameInUse()
	merged.Contexts[contextName] = &context
	merged.CurrentContext = contextName

	cluster, err := config.effectiveCluster()
	if err != nil {
		return clientcmdapi.Config{}, err
	}
	clusterName, _ := config.clusterNameInUse()
	merged.Clusters[clusterName] = &cluster
	return *merged, nil
}

// Namespace returns the namespace override when set (reported as
// overridden), else the selected context's namespace, else "default".
func (config *DirectClientConfig) Namespace() (string, bool, error) {
	if config.overrides != nil && config.overrides.Context.Namespace != "" {
		// An explicit namespace is honoured even when the config is empty,
		// so that in-cluster clients can still use --namespace.
		return config.overrides.Context.Namespace, true, nil
	}
	if err := config.ConfirmUsable(); err != nil {
		return "", false, err
	}
	context, err := config.effectiveContext()
	if err != nil {
		return "", false, err
	}
	if len(context.Namespace) == 0 {
		return "default", false, nil
	}
	return context.Namespace, false, nil
}

// ConfigAccess returns the ConfigAccess given at construction.
func (config *DirectClientConfig) ConfigAccess() ConfigAccess {
	return config.configAccess
}

// ConfirmUsable checks the selected context, user and cluster (after
// overrides) and reports every problem found there. A config with nothing
// in it at all gives the empty-config error.
func (config *DirectClientConfig) ConfirmUsable() error {
	var errs []error

	contextName := config.contextName
	if len(contextName) == 0 {
		contextName = config.config.CurrentContext
	}
	if len(contextName) > 0 {
		if _, ok := config.config.Contexts[contextName]; !ok {
			errs = append(errs, &contextNotFoundError{contextName})
		}
	}

	authInfoName, _ := config.authInfoNameInUse()
	authInfo, _ := config.effectiveAuthInfo()
	errs = append(errs, authInfoProblems(authInfoName, authInfo)...)
	clusterName, _ := config.clusterNameInUse()
	cluster, _ := config.effectiveCluster()
	errs = append(errs, clusterProblems(clusterName, cluster)...)

	if len(errs) == 1 && errs[0] == ErrEmptyCluster {
		return newErrConfigurationInvalid([]error{ErrEmptyConfig})
	}
	return newErrConfigurationInvalid(errs)
}

// contextNameInUse returns the selected context name and whether it came from
// the overrides.
func (config *DirectClientConfig) contextNameInUse() (string, bool) {
	if o := config.overrides; o != nil && o.CurrentContext != "" {
		return o.CurrentContext, true
	}
	return cmp.Or(config.contextName, config.config.CurrentContext), false
}

// authInfoNameInUse returns the selected user name and whether it came from
// the overrides.
func (config *DirectClientConfig) authInfoNameInUse() (string, bool) {
	if o := config.overrides; o != nil && o.Context.AuthInfo != "" {
		return o.Context.AuthInfo, true
	}
	selected, _ := config.effectiveContext()
	return selected.AuthInfo, false
}

// clusterNameInUse returns the selected cluster name and whether it came from
// the overrides.
func (config *DirectClientConfig) clusterNameInUse() (string, bool) {
	if o := config.overrides; o != nil && o.Context.Cluster != "" {
		return o.Context.Cluster, true
	}
	selected, _ := config.effectiveContext()
	return selected.Cluster, false
}

// effectiveContext returns the selected context with the context overrides laid
// on top. A context named by the overrides must exist.
func (config *DirectClientConfig) effectiveContext() (clientcmdapi.Context, error) {
	name, required := config.contextNameInUse()
	merged := clientcmdapi.NewContext()
	if found, ok := config.config.Contexts[name]; ok {
		if err := overlay(merged, found); err != nil {
			return clientcmdapi.Context{}, err
		}
	} else if required {
		return clientcmdapi.Context{}, fmt.Errorf("context %q does not exist", name)
	}
	if config.overrides != nil {
		if err := overlay(merged, &config.overrides.Context); err != nil {
			return clientcmdapi.Context{}, err
		}
	}
	return *merged, nil
}

// effectiveAuthInfo returns the selected user with the user overrides laid on
// top. A user named by the overrides must exist. An overriding client
// certificate or key replaces both the file and the inline form, so that a
// flag never collides with data from the file.
func (config *DirectClientConfig) effectiveAuthInfo() (clientcmdapi.AuthInfo, error) {
	name, required := config.authInfoNameInUse()
	merged := clientcmdapi.NewAuthInfo()
	if found, ok := config.config.AuthInfos[name]; ok {
		if err := overlay(merged, found); err != nil {
			return clientcmdapi.AuthInfo{}, err
		}
	} else if required {
		return clientcmdapi.AuthInfo{}, fmt.Errorf("auth info %q does not exist", name)
	}
	if o := config.overrides; o != nil {
		if err := overlay(merged, &o.AuthInfo); err != nil {
			return clientcmdapi.AuthInfo{}, err
		}
		if len(o.AuthInfo.ClientKey) > 0 || len(o.AuthInfo.ClientKeyData) > 0 {
			merged.ClientKey = o.AuthInfo.ClientKey
			merged.ClientKeyData = o.AuthInfo.ClientKeyData
		}
		if len(o.AuthInfo.ClientCertificate) > 0 || len(o.AuthInfo.ClientCertificateData) > 0 {
			merged.ClientCertificate = o.AuthInfo.ClientCertificate
			merged.ClientCertificateData = o.AuthInfo.ClientCertificateData
		}
	}
	return *merged, nil
}

// effectiveCluster returns the selected cluster: the ClusterDefaults, then the
// config's entry, then the cluster overrides. A cluster named by the
// overrides must exist. Overriding insecure-skip-tls-verify or the CA
// replaces all three TLS trust settings together, and overriding the server
// or TLS server name replaces the TLS server name.
func (config *DirectClientConfig) effectiveCluster() (clientcmdapi.Cluster, error) {
	name, required := config.clusterNameInUse()
	merged := clientcmdapi.NewCluster()
	if config.overrides != nil {
		if err := overlay(merged, &config.overrides.ClusterDefaults); err != nil {
			return clientcmdapi.Cluster{}, err
		}
	}
	if found, ok := config.config.Clusters[name]; ok {
		if err := overlay(merged, found); err != nil {
			return clientcmdapi.Cluster{}, err
		}
	} else if required {
		return clientcmdapi.Cluster{}, fmt.Errorf("cluster %q does not exist", name)
	}
	if o := config.overrides; o != nil {
		if err := overlay(merged, &o.ClusterInfo); err != nil {
			return clientcmdapi.Cluster{}, err
		}
		info := o.ClusterInfo
		if info.InsecureSkipTLSVerify || len(info.CertificateAuthority) > 0 || len(info.CertificateAuthorityData) > 0 {
			merged.InsecureSkipTLSVerify = info.InsecureSkipTLSVerify
			merged.CertificateAuthority = info.CertificateAuthority
			merged.CertificateAuthorityData = info.CertificateAuthorityData
		}
		if info.TLSServerName != "" || info.Server != "" {
			merged.TLSServerName = info.TLSServerName
		}
	}
	return *merged, nil
}
