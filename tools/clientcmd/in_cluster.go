package clientcmd

import (
	"fmt"
	"os"
	"strings"

	restclient "github.com/kubeclient/client-go/rest"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// Files a pod's service account mounts.
const (
	serviceAccountTokenFile     = "/var/run/secrets/kubernetes.io/serviceaccount/token"
	serviceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"
)

// InClusterConfig is the in-cluster ClientConfig seen by
// DeferredLoadingClientConfig; it is an interface so that tests can replace
// it.
type InClusterConfig interface {
	ClientConfig
	Possible() bool
}

// inClusterClientConfig is the ClientConfig of a process running in a pod:
// rest.InClusterConfig, with the server, token and CA file overrides
// applied.
type inClusterClientConfig struct {
	overrides *ConfigOverrides
	// inClusterConfigProvider replaces rest.InClusterConfig when set.
	inClusterConfigProvider func() (*restclient.Config, error)

	// tokenFile and namespaceFile replace the service-account paths when
	// set (tests).
	tokenFile     string
	namespaceFile string
}

var _ InClusterConfig = &inClusterClientConfig{}

// RawConfig fails: the in-cluster environment has no kubeconfig.
func (config *inClusterClientConfig) RawConfig() (clientcmdapi.Config, error) {
	return clientcmdapi.Config{}, fmt.Errorf("inCluster environment config doesn't support multiple clusters")
}

// ClientConfig returns the in-cluster config with any server, token or CA
// file override replacing its value.
func (config *inClusterClientConfig) ClientConfig() (*restclient.Config, error) {
	provider := config.inClusterConfigProvider
	if provider == nil {
		provider = restclient.InClusterConfig
	}
	icc, err := provider()
	if err != nil {
		return nil, err
	}
	if o := config.overrides; o != nil {
		if server := o.ClusterInfo.Server; len(server) > 0 {
			icc.Host = server
		}
		if len(o.AuthInfo.Token) > 0 || len(o.AuthInfo.TokenFile) > 0 {
			icc.BearerToken = o.AuthInfo.Token
			icc.BearerTokenFile = o.AuthInfo.TokenFile
		}
		if ca := o.ClusterInfo.CertificateAuthority; len(ca) > 0 {
			icc.TLSClientConfig.CAFile = ca
		}
	}
	return icc, nil
}

// Namespace returns $POD_NAMESPACE, else the service account's namespace
// file, else "default". It is never reported as overridden.
func (config *inClusterClientConfig) Namespace() (string, bool, error) {
	if ns := os.Getenv("POD_NAMESPACE"); ns != "" {
		return ns, false, nil
	}
	namespaceFile := config.namespaceFile
	if namespaceFile == "" {
		namespaceFile = serviceAccountNamespaceFile
	}
	if data, err := os.ReadFile(namespaceFile); err == nil {
		if ns := strings.TrimSpace(string(data)); len(ns) > 0 {
			return ns, false, nil
		}
	}
	return "default", false, nil
}

// ConfigAccess returns the default loading rules.
func (config *inClusterClientConfig) ConfigAccess() ConfigAccess {
	return NewDefaultClientConfigLoadingRules()
}

// Possible reports whether the process looks like it runs in a pod: the
// service host and port variables are set and the token file exists.
func (config *inClusterClientConfig) Possible() bool {
	tokenFile := config.tokenFile
	if tokenFile == "" {
		tokenFile = serviceAccountTokenFile
	}
	fi, err := os.Stat(tokenFile)
	return os.Getenv("KUBERNETES_SERVICE_HOST") != "" &&
		os.Getenv("KUBERNETES_SERVICE_PORT") != "" &&
		err == nil && !fi.IsDir()
}
