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
	ClusterDefaults = clientcmdapi.Cluster{Server: cmp.Or(os.Getenv("KUBERNETES_MASTER"), "http://localhost:8080")}
	// DefaultClientConfig is an empty config with ClusterDefaults applied,
	// the historical fallback of this package. Deprecated.
	DefaultClientConfig = DirectClientConfig{
		config:       *clientcmdapi.NewConfig(),
		overrides:    &ConfigOverrides{ClusterDefaults: ClusterDefaults},
		configAccess: NewDefaultClientConfigLoadingRules(),
	}
)

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

// DirectClientConfig is a ClientConfig over an in-memory Config: it selects
// a context (the given name, else the overrides' current context, else the
// config's), lays the overrides on top and, when interactive, prompts on
// fallbackReader for credentials the config lacks.
type DirectClientConfig struct {
	config       clientcmdapi.Config
	overrides    *ConfigOverrides
	configAccess ConfigAccess
	// contextName is the context asked for at construction; empty means
	// the config's current one.
	contextName string

	// fallbackReader, when set, is where credentials are prompted for;
	// prompted caches what was read there so it is asked only once.
	fallbackReader io.Reader
	prompted       struct {
		username string
		password string `datapolicy:"password"`
	}
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

// ConfigAccess returns the ConfigAccess given at construction.
func (config *DirectClientConfig) ConfigAccess() ConfigAccess {
	return config.configAccess
}

// MergedRawConfig returns a copy of the Config in which the selected
// context, user and cluster are replaced by their overridden versions and
// the selected context is current.
func (config *DirectClientConfig) MergedRawConfig() (clientcmdapi.Config, error) {
	if err := config.ConfirmUsable(); err != nil {
		return clientcmdapi.Config{}, err
	}
	s := config.resolve()
	if err := s.firstErr(); err != nil {
		return clientcmdapi.Config{}, err
	}
	merged := config.config.DeepCopy()
	merged.CurrentContext = s.contextName
	merged.Contexts = withEntry(merged.Contexts, s.contextName, s.context)
	merged.AuthInfos = withEntry(merged.AuthInfos, s.authInfoName, s.authInfo)
	merged.Clusters = withEntry(merged.Clusters, s.clusterName, s.cluster)
	return *merged, nil
}

// withEntry stores a pointer to value under name, allocating entries when
// it is nil.
func withEntry[T any](entries map[string]*T, name string, value T) map[string]*T {
	if entries == nil {
		entries = make(map[string]*T, 1)
	}
	entries[name] = &value
	return entries
}

// Namespace returns the namespace override when set (reported as
// overridden), else the selected context's namespace, else "default".
// An explicit namespace is honoured even when the config is unusable, so
// that in-cluster clients can still use --namespace.
func (config *DirectClientConfig) Namespace() (string, bool, error) {
	if o := config.overrides; o != nil && o.Context.Namespace != "" {
		return o.Context.Namespace, true, nil
	}
	if err := config.ConfirmUsable(); err != nil {
		return "", false, err
	}
	s := config.resolve()
	if s.contextErr != nil {
		return "", false, s.contextErr
	}
	return cmp.Or(s.context.Namespace, "default"), false, nil
}

// ConfirmUsable checks the selected context, user and cluster (after
// overrides) and reports every problem found there. The context name
// checked is the configured one, not an override. A config with nothing in
// it at all gives the empty-config error.
func (config *DirectClientConfig) ConfirmUsable() error {
	var errs []error
	if name := cmp.Or(config.contextName, config.config.CurrentContext); name != "" {
		if _, found := config.config.Contexts[name]; !found {
			errs = append(errs, &contextNotFoundError{name})
		}
	}
	s := config.resolve()
	errs = append(errs, authInfoProblems(s.authInfoName, s.authInfo)...)
	errs = append(errs, clusterProblems(s.clusterName, s.cluster)...)
	if len(errs) == 1 && errs[0] == ErrEmptyCluster {
		errs = []error{ErrEmptyConfig}
	}
	return newErrConfigurationInvalid(errs)
}

// selection is what a DirectClientConfig resolves to: the names of the
// chosen context, user and cluster and each entry with the overrides laid
// on top. An entry named by the overrides but absent from the config is
// left zero and its error kept in the matching *Err field.
type selection struct {
	contextName, authInfoName, clusterName string

	context  clientcmdapi.Context
	authInfo clientcmdapi.AuthInfo
	cluster  clientcmdapi.Cluster

	contextErr, authInfoErr, clusterErr error
}

// firstErr reports a missing entry, checking the user, then the context,
// then the cluster.
func (s *selection) firstErr() error {
	return cmp.Or(s.authInfoErr, s.contextErr, s.clusterErr)
}

// resolve chooses the context (override, then the configured name, then the
// config's current context), then the user and cluster (override, then the
// chosen context's), and builds each entry: the cluster starts from the
// ClusterDefaults; the config entry and the overrides follow.
//
// Overriding a client certificate or key replaces both the file and the
// inline form, so a flag never collides with data from the file; overriding
// insecure-skip-tls-verify or the CA replaces all three trust settings; and
// overriding the server or TLS server name replaces the TLS server name.
func (config *DirectClientConfig) resolve() *selection {
	o := config.overrides
	if o == nil {
		o = &ConfigOverrides{}
	}
	s := &selection{}

	s.contextName = cmp.Or(o.CurrentContext, config.contextName, config.config.CurrentContext)
	s.context, s.contextErr = layered("context", config.config.Contexts, s.contextName, o.CurrentContext != "",
		clientcmdapi.NewContext(), nil, &o.Context)

	s.authInfoName = cmp.Or(o.Context.AuthInfo, s.context.AuthInfo)
	s.authInfo, s.authInfoErr = layered("auth info", config.config.AuthInfos, s.authInfoName, o.Context.AuthInfo != "",
		clientcmdapi.NewAuthInfo(), nil, &o.AuthInfo)
	if s.authInfoErr == nil {
		user := &o.AuthInfo
		if user.ClientKey != "" || len(user.ClientKeyData) != 0 {
			s.authInfo.ClientKey, s.authInfo.ClientKeyData = user.ClientKey, user.ClientKeyData
		}
		if user.ClientCertificate != "" || len(user.ClientCertificateData) != 0 {
			s.authInfo.ClientCertificate, s.authInfo.ClientCertificateData = user.ClientCertificate, user.ClientCertificateData
		}
	}

	s.clusterName = cmp.Or(o.Context.Cluster, s.context.Cluster)
	s.cluster, s.clusterErr = layered("cluster", config.config.Clusters, s.clusterName, o.Context.Cluster != "",
		clientcmdapi.NewCluster(), &o.ClusterDefaults, &o.ClusterInfo)
	if s.clusterErr == nil {
		server := &o.ClusterInfo
		if server.InsecureSkipTLSVerify || server.CertificateAuthority != "" || len(server.CertificateAuthorityData) != 0 {
			s.cluster.InsecureSkipTLSVerify = server.InsecureSkipTLSVerify
			s.cluster.CertificateAuthority = server.CertificateAuthority
			s.cluster.CertificateAuthorityData = server.CertificateAuthorityData
		}
		if server.Server != "" || server.TLSServerName != "" {
			s.cluster.TLSServerName = server.TLSServerName
		}
	}
	return s
}

// layered lays defaults, the entry called name (when present) and override,
// in that order, onto base and returns the result. When the overrides chose
// name (mustExist) and the config has no such entry, it returns the zero
// value and a "does not exist" error naming kind.
func layered[T any](kind string, entries map[string]*T, name string, mustExist bool, base, defaults, override *T) (T, error) {
	var zero T
	entry, found := entries[name]
	if !found && mustExist {
		return zero, fmt.Errorf("%s %q does not exist", kind, name)
	}
	for _, layer := range []*T{defaults, entry, override} {
		if err := overlay(base, layer); err != nil {
			return zero, err
		}
	}
	return *base, nil
}
