package clientcmd

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation"

	authexec "github.com/kubeclient/client-go/plugin/pkg/client/auth/exec"
	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// Validate checks the whole config: the current context must exist, and
// every context, user and cluster must be consistent. It reports every
// problem it finds, not just the first, as one configuration-invalid error.
func Validate(config clientcmdapi.Config) error {
	if clientcmdapi.IsConfigEmpty(&config) {
		return newErrConfigurationInvalid([]error{ErrEmptyConfig})
	}

	var errs []error
	if len(config.CurrentContext) != 0 {
		if _, ok := config.Contexts[config.CurrentContext]; !ok {
			errs = append(errs, &contextNotFoundError{config.CurrentContext})
		}
	}
	for _, name := range sortedKeys(config.Contexts) {
		if context := config.Contexts[name]; context != nil {
			errs = append(errs, contextProblems(name, *context, config)...)
		}
	}
	for _, name := range sortedKeys(config.AuthInfos) {
		if authInfo := config.AuthInfos[name]; authInfo != nil {
			errs = append(errs, authInfoProblems(name, *authInfo)...)
		}
	}
	for _, name := range sortedKeys(config.Clusters) {
		if cluster := config.Clusters[name]; cluster != nil {
			errs = append(errs, clusterProblems(name, *cluster)...)
		}
	}
	return newErrConfigurationInvalid(errs)
}

// ConfirmUsable checks only what the named context (or, when
// passedContextName is empty, the current context) needs: the context
// itself, its user and its cluster. It reports every problem found there.
func ConfirmUsable(config clientcmdapi.Config, passedContextName string) error {
	if clientcmdapi.IsConfigEmpty(&config) {
		return newErrConfigurationInvalid([]error{ErrEmptyConfig})
	}

	contextName := passedContextName
	if len(contextName) == 0 {
		contextName = config.CurrentContext
	}
	if len(contextName) == 0 {
		return ErrNoContext
	}

	context, ok := config.Contexts[contextName]
	if !ok || context == nil {
		return newErrConfigurationInvalid([]error{&contextNotFoundError{contextName}})
	}

	errs := contextProblems(contextName, *context, config)
	authInfo := clientcmdapi.AuthInfo{}
	if found := config.AuthInfos[context.AuthInfo]; found != nil {
		authInfo = *found
	}
	errs = append(errs, authInfoProblems(context.AuthInfo, authInfo)...)
	cluster := clientcmdapi.Cluster{}
	if found := config.Clusters[context.Cluster]; found != nil {
		cluster = *found
	}
	errs = append(errs, clusterProblems(context.Cluster, cluster)...)
	return newErrConfigurationInvalid(errs)
}

// clusterProblems checks one cluster entry: it needs a server, a usable
// proxy-url, at most one form of CA, and a CA file that can be opened.
func clusterProblems(clusterName string, cluster clientcmdapi.Cluster) []error {
	if reflect.DeepEqual(*clientcmdapi.NewCluster(), cluster) {
		return []error{ErrEmptyCluster}
	}

	var errs []error
	if len(cluster.Server) == 0 {
		if len(clusterName) == 0 {
			errs = append(errs, fmt.Errorf("default cluster has no server defined"))
		} else {
			errs = append(errs, fmt.Errorf("no server found for cluster %q", clusterName))
		}
	}
	if proxyURL := cluster.ProxyURL; proxyURL != "" {
		if _, err := parseClusterProxyURL(proxyURL); err != nil {
			errs = append(errs, fmt.Errorf("invalid 'proxy-url' %q for cluster %q: %w", proxyURL, clusterName, err))
		}
	}
	if len(cluster.CertificateAuthority) != 0 && len(cluster.CertificateAuthorityData) != 0 {
		errs = append(errs, fmt.Errorf("certificate-authority-data and certificate-authority are both specified for %v. certificate-authority-data will override.", clusterName))
	}
	if len(cluster.CertificateAuthority) != 0 {
		if err := checkReadable(cluster.CertificateAuthority); err != nil {
			errs = append(errs, fmt.Errorf("unable to read certificate-authority %v for %v due to %w", cluster.CertificateAuthority, clusterName, err))
		}
	}
	return errs
}

// authInfoProblems checks one user entry: certificate and key come as a pair
// and their files can be opened, an exec plugin is complete and allowed, at
// most one of token and basic auth is used, and impersonation extras come
// with an impersonated user.
func authInfoProblems(authInfoName string, authInfo clientcmdapi.AuthInfo) []error {
	var errs []error

	var methods []string
	if len(authInfo.Token) != 0 {
		methods = append(methods, "token")
	}
	if len(authInfo.Username) != 0 || len(authInfo.Password) != 0 {
		methods = append(methods, "basicAuth")
	}

	if len(authInfo.ClientCertificate) != 0 || len(authInfo.ClientCertificateData) != 0 {
		if len(authInfo.ClientCertificate) != 0 && len(authInfo.ClientCertificateData) != 0 {
			errs = append(errs, fmt.Errorf("client-cert-data and client-cert are both specified for %v. client-cert-data will override.", authInfoName))
		}
		if len(authInfo.ClientKey) != 0 && len(authInfo.ClientKeyData) != 0 {
			errs = append(errs, fmt.Errorf("client-key-data and client-key are both specified for %v; client-key-data will override", authInfoName))
		}
		if len(authInfo.ClientKey) == 0 && len(authInfo.ClientKeyData) == 0 {
			errs = append(errs, fmt.Errorf("client-key-data or client-key must be specified for %v to use the clientCert authentication method.", authInfoName))
		}
		if len(authInfo.ClientCertificate) != 0 {
			if err := checkReadable(authInfo.ClientCertificate); err != nil {
				errs = append(errs, fmt.Errorf("unable to read client-cert %v for %v due to %w", authInfo.ClientCertificate, authInfoName, err))
			}
		}
		if len(authInfo.ClientKey) != 0 {
			if err := checkReadable(authInfo.ClientKey); err != nil {
				errs = append(errs, fmt.Errorf("unable to read client-key %v for %v due to %w", authInfo.ClientKey, authInfoName, err))
			}
		}
	}

	if exec := authInfo.Exec; exec != nil {
		if authInfo.AuthProvider != nil {
			errs = append(errs, fmt.Errorf("authProvider cannot be provided in combination with an exec plugin for %s", authInfoName))
		}
		if len(exec.Command) == 0 {
			errs = append(errs, fmt.Errorf("command must be specified for %v to use exec authentication plugin", authInfoName))
		}
		if len(exec.APIVersion) == 0 {
			errs = append(errs, fmt.Errorf("apiVersion must be specified for %v to use exec authentication plugin", authInfoName))
		}
		for _, v := range exec.Env {
			if len(v.Name) == 0 {
				errs = append(errs, fmt.Errorf("env variable name must be specified for %v to use exec authentication plugin", authInfoName))
			}
		}
		switch exec.InteractiveMode {
		case "":
			errs = append(errs, fmt.Errorf("interactiveMode must be specified for %v to use exec authentication plugin", authInfoName))
		case clientcmdapi.NeverExecInteractiveMode, clientcmdapi.IfAvailableExecInteractiveMode, clientcmdapi.AlwaysExecInteractiveMode:
		default:
			errs = append(errs, fmt.Errorf("invalid interactiveMode for %v: %q", authInfoName, exec.InteractiveMode))
		}
		if err := authexec.ValidatePluginPolicy(exec.PluginPolicy); err != nil {
			errs = append(errs, fmt.Errorf("allowlist misconfiguration: %w", err))
		}
	}

	if len(methods) > 1 {
		errs = append(errs, fmt.Errorf("more than one authentication method found for %v; found %v, only one is allowed", authInfoName, methods))
	}

	impersonatesDetails := len(authInfo.ImpersonateUID) > 0 || len(authInfo.ImpersonateGroups) > 0 || len(authInfo.ImpersonateUserExtra) > 0
	if impersonatesDetails && len(authInfo.Impersonate) == 0 {
		errs = append(errs, fmt.Errorf("requesting uid, groups or user-extra for %v without impersonating a user", authInfoName))
	}
	return errs
}

// contextProblems checks one context: it names a user and a cluster that
// exist, and its namespace is a DNS label. It does not look inside the
// referenced user and cluster.
func contextProblems(contextName string, context clientcmdapi.Context, config clientcmdapi.Config) []error {
	var errs []error
	if len(contextName) == 0 {
		errs = append(errs, fmt.Errorf("empty context name for %#v is not allowed", context))
	}

	if len(context.AuthInfo) == 0 {
		errs = append(errs, fmt.Errorf("user was not specified for context %q", contextName))
	} else if _, ok := config.AuthInfos[context.AuthInfo]; !ok {
		errs = append(errs, fmt.Errorf("user %q was not found for context %q", context.AuthInfo, contextName))
	}

	if len(context.Cluster) == 0 {
		errs = append(errs, fmt.Errorf("cluster was not specified for context %q", contextName))
	} else if _, ok := config.Clusters[context.Cluster]; !ok {
		errs = append(errs, fmt.Errorf("cluster %q was not found for context %q", context.Cluster, contextName))
	}

	if len(context.Namespace) != 0 && len(validation.IsDNS1123Label(context.Namespace)) != 0 {
		errs = append(errs, fmt.Errorf("namespace %q for context %q does not conform to the kubernetes DNS_LABEL rules", context.Namespace, contextName))
	}
	return errs
}

// checkReadable reports why filename cannot be opened, or nil.
func checkReadable(filename string) error {
	f, err := os.Open(filename)
	if err != nil {
		return err
	}
	return f.Close()
}

// sortedKeys returns m's keys in order, so that validation reports problems
// in a stable order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return slices.Clip(keys)
}
