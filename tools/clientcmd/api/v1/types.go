package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// Config is a kubeconfig file as it is written on disk.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type Config struct {
	// Kind is a legacy type-meta field; it is not converted.
	// +optional
	Kind string `json:"kind,omitempty"`
	// APIVersion is a legacy type-meta field; it is not converted.
	// +optional
	APIVersion string `json:"apiVersion,omitempty"`
	// Preferences carries CLI preferences.
	// Deprecated: no Kubernetes component reads preferences since v1.34.
	Preferences Preferences `json:"preferences,omitzero"`
	// Clusters lists the named clusters.
	Clusters []NamedCluster `json:"clusters"`
	// AuthInfos lists the named users.
	AuthInfos []NamedAuthInfo `json:"users"`
	// Contexts lists the named contexts.
	Contexts []NamedContext `json:"contexts"`
	// CurrentContext names the default context.
	CurrentContext string `json:"current-context"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// Preferences holds CLI preferences.
// Deprecated: no Kubernetes component reads preferences since v1.34.
type Preferences struct {
	// +optional
	Colors bool `json:"colors,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// Cluster says where an API server is and how to trust it.
type Cluster struct {
	// Server is the API server URL.
	Server string `json:"server"`
	// TLSServerName overrides the name used to verify the server certificate.
	// +optional
	TLSServerName string `json:"tls-server-name,omitempty"`
	// InsecureSkipTLSVerify disables verification of the server certificate.
	// +optional
	InsecureSkipTLSVerify bool `json:"insecure-skip-tls-verify,omitempty"`
	// CertificateAuthority is a path to a PEM bundle of trusted CAs.
	// +optional
	CertificateAuthority string `json:"certificate-authority,omitempty"`
	// CertificateAuthorityData is an inline PEM bundle (base64 in the file).
	// +optional
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	// ProxyURL is an http, https or socks5 proxy for every request.
	// +optional
	ProxyURL string `json:"proxy-url,omitempty"`
	// DisableCompression asks the server not to compress responses.
	// +optional
	DisableCompression bool `json:"disable-compression,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// AuthInfo describes who the client is.
type AuthInfo struct {
	// ClientCertificate is a path to a PEM client certificate.
	// +optional
	ClientCertificate string `json:"client-certificate,omitempty"`
	// ClientCertificateData is an inline PEM client certificate.
	// +optional
	ClientCertificateData []byte `json:"client-certificate-data,omitempty"`
	// ClientKey is a path to a PEM client key.
	// +optional
	ClientKey string `json:"client-key,omitempty"`
	// ClientKeyData is an inline PEM client key.
	// +optional
	ClientKeyData []byte `json:"client-key-data,omitempty" datapolicy:"security-key"`
	// Token is a bearer token.
	// +optional
	Token string `json:"token,omitempty" datapolicy:"token"`
	// TokenFile is a path to a file holding a bearer token.
	// +optional
	TokenFile string `json:"tokenFile,omitempty"`
	// Impersonate is the user name to act as.
	// +optional
	Impersonate string `json:"as,omitempty"`
	// ImpersonateUID is the UID to act as.
	// +optional
	ImpersonateUID string `json:"as-uid,omitempty"`
	// ImpersonateGroups are the groups to act as.
	// +optional
	ImpersonateGroups []string `json:"as-groups,omitempty"`
	// ImpersonateUserExtra is extra user information to act as.
	// +optional
	ImpersonateUserExtra map[string][]string `json:"as-user-extra,omitempty"`
	// Username is the basic-auth user name.
	// +optional
	Username string `json:"username,omitempty"`
	// Password is the basic-auth password.
	// +optional
	Password string `json:"password,omitempty" datapolicy:"password"`
	// AuthProvider selects a registered auth-provider plugin.
	// +optional
	AuthProvider *AuthProviderConfig `json:"auth-provider,omitempty"`
	// Exec runs an external command that prints credentials.
	// +optional
	Exec *ExecConfig `json:"exec,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// Context ties a cluster, a user and a namespace together.
type Context struct {
	// Cluster is the name of a cluster entry.
	Cluster string `json:"cluster"`
	// AuthInfo is the name of a user entry.
	AuthInfo string `json:"user"`
	// Namespace is used for requests that do not name one.
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions []NamedExtension `json:"extensions,omitempty"`
}

// NamedCluster is one entry of the clusters list.
type NamedCluster struct {
	// Name is the nickname contexts use to refer to the cluster.
	Name string `json:"name"`
	// Cluster is the cluster itself.
	Cluster Cluster `json:"cluster"`
}

// NamedContext is one entry of the contexts list.
type NamedContext struct {
	// Name is the context's nickname.
	Name string `json:"name"`
	// Context is the context itself.
	Context Context `json:"context"`
}

// NamedAuthInfo is one entry of the users list.
type NamedAuthInfo struct {
	// Name is the nickname contexts use to refer to the user.
	Name string `json:"name"`
	// AuthInfo is the user itself.
	AuthInfo AuthInfo `json:"user"`
}

// NamedExtension is one entry of an extensions list.
type NamedExtension struct {
	// Name identifies the extension.
	Name string `json:"name"`
	// Extension is the extension's raw content.
	Extension runtime.RawExtension `json:"extension"`
}

// AuthProviderConfig names an auth-provider plugin and carries its settings.
type AuthProviderConfig struct {
	Name   string            `json:"name"`
	Config map[string]string `json:"config"`
}

// ExecConfig describes an external command that prints an ExecCredential
// on its standard output.
type ExecConfig struct {
	// Command is the program to run.
	Command string `json:"command"`
	// Args are passed to Command.
	// +optional
	Args []string `json:"args"`
	// Env is added to the environment the plugin inherits.
	// +optional
	Env []ExecEnvVar `json:"env"`

	// APIVersion is the ExecCredential version exchanged with the plugin.
	APIVersion string `json:"apiVersion,omitempty"`

	// InstallHint is shown when Command cannot be found.
	InstallHint string `json:"installHint,omitempty"`

	// ProvideClusterInfo passes the cluster to the plugin in the
	// KUBERNETES_EXEC_INFO environment variable.
	ProvideClusterInfo bool `json:"provideClusterInfo"`

	// InteractiveMode says how the plugin uses standard input.
	// +optional
	InteractiveMode ExecInteractiveMode `json:"interactiveMode,omitempty"`
}

// ExecEnvVar is one environment variable given to an exec plugin.
type ExecEnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ExecInteractiveMode describes how an exec plugin uses standard input.
type ExecInteractiveMode string

const (
	// NeverExecInteractiveMode: the plugin never reads standard input.
	NeverExecInteractiveMode ExecInteractiveMode = "Never"
	// IfAvailableExecInteractiveMode: the plugin gets standard input when
	// it is available and runs without it otherwise.
	IfAvailableExecInteractiveMode ExecInteractiveMode = "IfAvailable"
	// AlwaysExecInteractiveMode: the plugin cannot run without standard
	// input.
	AlwaysExecInteractiveMode ExecInteractiveMode = "Always"
)
