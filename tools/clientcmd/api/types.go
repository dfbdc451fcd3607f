package api

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// Config is the merged, in-memory view of one or more kubeconfig files: the
// named clusters, users and contexts, and which context is current.
//
// When a field is added here, IsConfigEmpty must learn about it too.
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
	// Clusters maps a nickname to the cluster it describes.
	Clusters map[string]*Cluster `json:"clusters"`
	// AuthInfos maps a nickname to user credentials.
	AuthInfos map[string]*AuthInfo `json:"users"`
	// Contexts maps a nickname to a (cluster, user, namespace) triple.
	Contexts map[string]*Context `json:"contexts"`
	// CurrentContext names the context used when none is chosen explicitly.
	CurrentContext string `json:"current-context"`
	// Extensions keeps data owned by other tools so that it survives a
	// read-modify-write cycle.
	// +optional
	Extensions map[string]runtime.Object `json:"extensions,omitempty"`
}

// Preferences holds CLI preferences.
//
// When a field is added here, IsConfigEmpty must learn about it too.
// Deprecated: no Kubernetes component reads preferences since v1.34.
type Preferences struct {
	// +optional
	Colors bool `json:"colors,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions map[string]runtime.Object `json:"extensions,omitempty"`
}

// Cluster says where an API server is and how to trust it.
type Cluster struct {
	// LocationOfOrigin is the file this entry was loaded from. It is used to
	// resolve relative paths and to write merged configs back; it is never
	// serialized.
	// +k8s:conversion-gen=false
	LocationOfOrigin string `json:"-"`
	// Server is the API server URL, e.g. https://host:6443.
	Server string `json:"server"`
	// TLSServerName overrides the name used to verify the server
	// certificate; by default the host of Server is used.
	// +optional
	TLSServerName string `json:"tls-server-name,omitempty"`
	// InsecureSkipTLSVerify disables verification of the server certificate.
	// +optional
	InsecureSkipTLSVerify bool `json:"insecure-skip-tls-verify,omitempty"`
	// CertificateAuthority is a path to a PEM bundle of trusted CAs.
	// +optional
	CertificateAuthority string `json:"certificate-authority,omitempty"`
	// CertificateAuthorityData is an inline PEM bundle; it wins over
	// CertificateAuthority.
	// +optional
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	// ProxyURL is an http, https or socks5 proxy for every request. When
	// empty the usual proxy environment variables apply. SOCKS5 proxies do
	// not carry streaming (exec, attach, port-forward) connections.
	// +optional
	ProxyURL string `json:"proxy-url,omitempty"`
	// DisableCompression asks the server not to compress responses.
	// +optional
	DisableCompression bool `json:"disable-compression,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions map[string]runtime.Object `json:"extensions,omitempty"`
}

// AuthInfo describes who the client is: certificates, tokens, basic-auth
// credentials, impersonation and credential plugins.
type AuthInfo struct {
	// LocationOfOrigin is the file this entry was loaded from; never
	// serialized.
	// +k8s:conversion-gen=false
	LocationOfOrigin string `json:"-"`
	// ClientCertificate is a path to a PEM client certificate.
	// +optional
	ClientCertificate string `json:"client-certificate,omitempty"`
	// ClientCertificateData is an inline PEM client certificate; it wins
	// over ClientCertificate.
	// +optional
	ClientCertificateData []byte `json:"client-certificate-data,omitempty"`
	// ClientKey is a path to a PEM client key.
	// +optional
	ClientKey string `json:"client-key,omitempty"`
	// ClientKeyData is an inline PEM client key; it wins over ClientKey.
	// +optional
	ClientKeyData []byte `json:"client-key-data,omitempty" datapolicy:"security-key"`
	// Token is a bearer token.
	// +optional
	Token string `json:"token,omitempty" datapolicy:"token"`
	// TokenFile is a path to a file holding a bearer token. The file is
	// re-read periodically and, once read, takes precedence over Token.
	// +optional
	TokenFile string `json:"tokenFile,omitempty"`
	// Impersonate is the user name to act as.
	// +optional
	Impersonate string `json:"act-as,omitempty"`
	// ImpersonateUID is the UID to act as.
	// +optional
	ImpersonateUID string `json:"act-as-uid,omitempty"`
	// ImpersonateGroups are the groups to act as.
	// +optional
	ImpersonateGroups []string `json:"act-as-groups,omitempty"`
	// ImpersonateUserExtra is extra user information to act as.
	// +optional
	ImpersonateUserExtra map[string][]string `json:"act-as-user-extra,omitempty"`
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
	Extensions map[string]runtime.Object `json:"extensions,omitempty"`
}

// Context ties a cluster, a user and a default namespace together under one
// name.
type Context struct {
	// LocationOfOrigin is the file this entry was loaded from; never
	// serialized.
	// +k8s:conversion-gen=false
	LocationOfOrigin string `json:"-"`
	// Cluster is the nickname of a Config.Clusters entry.
	Cluster string `json:"cluster"`
	// AuthInfo is the nickname of a Config.AuthInfos entry.
	AuthInfo string `json:"user"`
	// Namespace is used for requests that do not name one.
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// Extensions keeps data owned by other tools.
	// +optional
	Extensions map[string]runtime.Object `json:"extensions,omitempty"`
}

// AuthProviderConfig names an auth-provider plugin and carries its settings.
type AuthProviderConfig struct {
	Name string `json:"name"`
	// +optional
	Config map[string]string `json:"config,omitempty"`
}

// ExecConfig describes an external command that prints an ExecCredential
// (API group client.authentication.k8s.io) on its standard output.
type ExecConfig struct {
	// Command is the program to run.
	Command string `json:"command"`
	// Args are passed to Command.
	// +optional
	Args []string `json:"args"`
	// Env is added to the environment the plugin inherits from the client.
	// +optional
	Env []ExecEnvVar `json:"env"`

	// APIVersion is the ExecCredential version sent to the plugin; the
	// plugin must answer in the same version.
	APIVersion string `json:"apiVersion,omitempty"`

	// InstallHint is shown when Command cannot be found, for example
	// "brew install foo-cli".
	InstallHint string `json:"installHint,omitempty"`

	// ProvideClusterInfo passes the cluster (including its possibly large CA
	// data) to the plugin in the KUBERNETES_EXEC_INFO environment variable.
	ProvideClusterInfo bool `json:"provideClusterInfo"`

	// Config is the per-cluster plugin configuration taken from the
	// cluster's "client.authentication.k8s.io/exec" extension. It is not
	// serialized as part of the user entry.
	// +k8s:conversion-gen=false
	Config runtime.Object `json:"-"`

	// InteractiveMode says how the plugin uses standard input: Never,
	// IfAvailable or Always. It defaults to IfAvailable for the v1alpha1
	// and v1beta1 APIs and is required otherwise.
	// +optional
	InteractiveMode ExecInteractiveMode `json:"interactiveMode,omitempty"`

	// StdinUnavailable is set by a caller that needs standard input for
	// itself, so the plugin must not get it. Never serialized.
	// +k8s:conversion-gen=false
	StdinUnavailable bool `json:"-"`

	// StdinUnavailableMessage explains why standard input is unavailable;
	// it is included in the error when an Always plugin cannot run.
	// +k8s:conversion-gen=false
	StdinUnavailableMessage string `json:"-"`

	// PluginPolicy decides whether Command may run at all.
	// +k8s:conversion-gen=false
	PluginPolicy PluginPolicy `json:"-"`
}

// ExecEnvVar is one environment variable given to an exec plugin.
type ExecEnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ExecInteractiveMode describes how an exec plugin uses standard input.
type ExecInteractiveMode string

const (
	// NeverExecInteractiveMode: the plugin never reads standard input and
	// always runs.
	NeverExecInteractiveMode ExecInteractiveMode = "Never"
	// IfAvailableExecInteractiveMode: the plugin gets standard input when it
	// is a usable terminal and runs without it otherwise.
	IfAvailableExecInteractiveMode ExecInteractiveMode = "IfAvailable"
	// AlwaysExecInteractiveMode: the plugin needs standard input; running it
	// fails when standard input is not available.
	AlwaysExecInteractiveMode ExecInteractiveMode = "Always"
)

// PolicyType selects which credential plugins may run.
type PolicyType string

const (
	PluginPolicyAllowAll  PolicyType = "AllowAll"
	PluginPolicyDenyAll   PolicyType = "DenyAll"
	PluginPolicyAllowlist PolicyType = "Allowlist"
)

// PluginPolicy governs which credential plugins may be executed.
type PluginPolicy struct {
	// PolicyType is "", AllowAll, DenyAll or Allowlist. The empty value means
	// AllowAll.
	PolicyType PolicyType `json:"-"`

	// Allowlist lists the plugins allowed under the Allowlist policy; any
	// matching entry allows the plugin. It must be empty for other policies.
	Allowlist []AllowlistEntry `json:"-"`
}

// AllowlistEntry is one allowed plugin. Every non-empty field must match;
// an entry with no fields set is a configuration error.
type AllowlistEntry struct {
	// Command matches when exec.LookPath resolves it and the plugin's
	// command to the same path.
	Command string `json:"-"`
}

// NewConfig returns an empty Config whose maps are allocated.
func NewConfig() *Config {
	return &Config{
		Clusters:   map[string]*Cluster{},
		AuthInfos:  map[string]*AuthInfo{},
		Contexts:   map[string]*Context{},
		Extensions: map[string]runtime.Object{},
	}
}

// NewContext returns an empty Context whose maps are allocated.
func NewContext() *Context {
	return &Context{Extensions: map[string]runtime.Object{}}
}

// NewCluster returns an empty Cluster whose maps are allocated.
func NewCluster() *Cluster {
	return &Cluster{Extensions: map[string]runtime.Object{}}
}

// NewAuthInfo returns an empty AuthInfo whose maps are allocated.
func NewAuthInfo() *AuthInfo {
	return &AuthInfo{
		ImpersonateUserExtra: map[string][]string{},
		Extensions:           map[string]runtime.Object{},
	}
}

// NewPreferences returns empty Preferences whose maps are allocated.
// Deprecated: no Kubernetes component reads preferences since v1.34.
func NewPreferences() *Preferences {
	return &Preferences{Extensions: map[string]runtime.Object{}}
}
