package clientcmd

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	clientcmdapi "github.com/kubeclient/client-go/tools/clientcmd/api"
)

// Long names of the standard override flags.
const (
	FlagClusterName        = "cluster"
	FlagAuthInfoName       = "user"
	FlagContext            = "context"
	FlagNamespace          = "namespace"
	FlagAPIServer          = "server"
	FlagTLSServerName      = "tls-server-name"
	FlagInsecure           = "insecure-skip-tls-verify"
	FlagCertFile           = "client-certificate"
	FlagKeyFile            = "client-key"
	FlagCAFile             = "certificate-authority"
	FlagEmbedCerts         = "embed-certs"
	FlagBearerToken        = "token"
	FlagImpersonate        = "as"
	FlagImpersonateUID     = "as-uid"
	FlagImpersonateGroup   = "as-group"
	FlagUsername           = "username"
	FlagPassword           = "password"
	FlagTimeout            = "request-timeout"
	FlagProxyURL           = "proxy-url"
	FlagDisableCompression = "disable-compression"
)

// ConfigOverrideFlags names the flags that fill a ConfigOverrides; its shape
// follows ConfigOverrides.
type ConfigOverrideFlags struct {
	AuthOverrideFlags    AuthOverrideFlags
	ClusterOverrideFlags ClusterOverrideFlags
	ContextOverrideFlags ContextOverrideFlags
	CurrentContext       FlagInfo
	Timeout              FlagInfo
}

// AuthOverrideFlags names the flags that fill the user part of the
// overrides.
type AuthOverrideFlags struct {
	ClientCertificate FlagInfo
	ClientKey         FlagInfo
	Token             FlagInfo
	Impersonate       FlagInfo
	ImpersonateUID    FlagInfo
	ImpersonateGroups FlagInfo
	Username          FlagInfo
	Password          FlagInfo
}

// ContextOverrideFlags names the flags that fill the context part of the
// overrides.
type ContextOverrideFlags struct {
	ClusterName  FlagInfo
	AuthInfoName FlagInfo
	Namespace    FlagInfo
}

// ClusterOverrideFlags names the flags that fill the cluster part of the
// overrides. APIVersion is kept for compatibility and is not bound.
type ClusterOverrideFlags struct {
	APIServer             FlagInfo
	APIVersion            FlagInfo
	CertificateAuthority  FlagInfo
	InsecureSkipTLSVerify FlagInfo
	TLSServerName         FlagInfo
	ProxyURL              FlagInfo
	DisableCompression    FlagInfo
}

// FlagInfo describes one flag so that a program can take the recommended
// set and rename, hide or re-describe individual flags before binding them.
type FlagInfo struct {
	// LongName is the flag's --name; a FlagInfo without one binds nothing.
	LongName string
	// ShortName is the optional one-letter -n form.
	ShortName string
	// Default is the flag's value when not given, as text.
	Default string
	// Description is the flag's help text.
	Description string
}

// named calls register with the flag's long name, short name and help text
// when the flag has a long name; a FlagInfo without one binds nothing. It
// returns f so that binding calls chain.
func (f FlagInfo) named(register func(name, shorthand, usage string)) FlagInfo {
	if f.LongName != "" {
		register(f.LongName, f.ShortName, f.Description)
	}
	return f
}

// AddSecretAnnotation marks the flag as holding a secret ("classified"
// annotation) so that tools can keep its value out of logs.
func (f FlagInfo) AddSecretAnnotation(flags *pflag.FlagSet) FlagInfo {
	// SetAnnotation fails only for a flag that is not registered, such as
	// one without a long name: there is nothing to mark then.
	_ = flags.SetAnnotation(f.LongName, "classified", []string{"true"})
	return f
}

// BindStringFlag registers a string flag writing to target, unless LongName
// is empty.
func (f FlagInfo) BindStringFlag(flags *pflag.FlagSet, target *string) FlagInfo {
	return f.named(func(name, shorthand, usage string) {
		flags.StringVarP(target, name, shorthand, f.Default, usage)
	})
}

// BindTransformingStringFlag registers a string flag whose values pass
// through transformer before being stored in target, unless LongName is
// empty. Binding stores Default in target untransformed.
func (f FlagInfo) BindTransformingStringFlag(flags *pflag.FlagSet, target *string, transformer func(string) (string, error)) FlagInfo {
	return f.named(func(name, shorthand, usage string) {
		*target = f.Default
		flags.VarP(&transformedString{target: target, transformer: transformer}, name, shorthand, usage)
	})
}

// BindStringArrayFlag registers a repeatable string flag writing to target,
// unless LongName is empty. A non-empty Default becomes a one-element
// default.
func (f FlagInfo) BindStringArrayFlag(flags *pflag.FlagSet, target *[]string) FlagInfo {
	return f.named(func(name, shorthand, usage string) {
		defaults := make([]string, 0, 1) // empty, not nil, without a Default
		if f.Default != "" {
			defaults = append(defaults, f.Default)
		}
		flags.StringArrayVarP(target, name, shorthand, defaults, usage)
	})
}

// BindBoolFlag registers a bool flag writing to target, unless LongName is
// empty. A Default that is not a bool counts as false.
func (f FlagInfo) BindBoolFlag(flags *pflag.FlagSet, target *bool) FlagInfo {
	return f.named(func(name, shorthand, usage string) {
		value, _ := strconv.ParseBool(f.Default) // false when not a bool
		flags.BoolVarP(target, name, shorthand, value, usage)
	})
}

// RecommendedConfigOverrideFlags returns the standard flag set, every long
// name prefixed with prefix.
func RecommendedConfigOverrideFlags(prefix string) ConfigOverrideFlags {
	return ConfigOverrideFlags{
		AuthOverrideFlags:    RecommendedAuthOverrideFlags(prefix),
		ClusterOverrideFlags: RecommendedClusterOverrideFlags(prefix),
		ContextOverrideFlags: RecommendedContextOverrideFlags(prefix),

		CurrentContext: FlagInfo{LongName: prefix + FlagContext, Description: "The name of the kubeconfig context to use"},
		Timeout: FlagInfo{LongName: prefix + FlagTimeout, Default: "0",
			Description: "The length of time to wait before giving up on a single server request. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero means don't timeout requests."},
	}
}

// RecommendedAuthOverrideFlags returns the standard user flags, every long
// name prefixed with prefix.
func RecommendedAuthOverrideFlags(prefix string) AuthOverrideFlags {
	return AuthOverrideFlags{
		ClientCertificate: FlagInfo{LongName: prefix + FlagCertFile, Description: "Path to a client certificate file for TLS"},
		ClientKey:         FlagInfo{LongName: prefix + FlagKeyFile, Description: "Path to a client key file for TLS"},
		Token:             FlagInfo{LongName: prefix + FlagBearerToken, Description: "Bearer token for authentication to the API server"},
		Impersonate:       FlagInfo{LongName: prefix + FlagImpersonate, Description: "Username to impersonate for the operation"},
		ImpersonateUID:    FlagInfo{LongName: prefix + FlagImpersonateUID, Description: "UID to impersonate for the operation"},
		ImpersonateGroups: FlagInfo{LongName: prefix + FlagImpersonateGroup, Description: "Group to impersonate for the operation, this flag can be repeated to specify multiple groups."},
		Username:          FlagInfo{LongName: prefix + FlagUsername, Description: "Username for basic authentication to the API server"},
		Password:          FlagInfo{LongName: prefix + FlagPassword, Description: "Password for basic authentication to the API server"},
	}
}

// RecommendedClusterOverrideFlags returns the standard cluster flags, every
// long name prefixed with prefix.
func RecommendedClusterOverrideFlags(prefix string) ClusterOverrideFlags {
	return ClusterOverrideFlags{
		APIServer:            FlagInfo{LongName: prefix + FlagAPIServer, Description: "The address and port of the Kubernetes API server"},
		CertificateAuthority: FlagInfo{LongName: prefix + FlagCAFile, Description: "Path to a cert file for the certificate authority"},
		InsecureSkipTLSVerify: FlagInfo{LongName: prefix + FlagInsecure, Default: "false",
			Description: "If true, the server's certificate will not be checked for validity. This will make your HTTPS connections insecure"},
		TLSServerName: FlagInfo{LongName: prefix + FlagTLSServerName,
			Description: "If provided, this name will be used to validate server certificate. If this is not provided, hostname used to contact the server is used."},
		ProxyURL:           FlagInfo{LongName: prefix + FlagProxyURL, Description: "If provided, this URL will be used to connect via proxy"},
		DisableCompression: FlagInfo{LongName: prefix + FlagDisableCompression, Description: "If true, opt-out of response compression for all requests to the server"},
	}
}

// RecommendedContextOverrideFlags returns the standard context flags, every
// long name prefixed with prefix; the namespace flag also has the short
// name "n".
func RecommendedContextOverrideFlags(prefix string) ContextOverrideFlags {
	return ContextOverrideFlags{
		ClusterName:  FlagInfo{LongName: prefix + FlagClusterName, Description: "The name of the kubeconfig cluster to use"},
		AuthInfoName: FlagInfo{LongName: prefix + FlagAuthInfoName, Description: "The name of the kubeconfig user to use"},
		Namespace:    FlagInfo{LongName: prefix + FlagNamespace, ShortName: "n", Description: "If present, the namespace scope for this CLI request"},
	}
}

// BindOverrideFlags registers the flags in flagNames on flags, each writing
// into its field of overrides.
func BindOverrideFlags(overrides *ConfigOverrides, flags *pflag.FlagSet, flagNames ConfigOverrideFlags) {
	BindAuthInfoFlags(&overrides.AuthInfo, flags, flagNames.AuthOverrideFlags)
	BindClusterFlags(&overrides.ClusterInfo, flags, flagNames.ClusterOverrideFlags)
	BindContextFlags(&overrides.Context, flags, flagNames.ContextOverrideFlags)
	bindStrings(flags, false,
		stringFlag{flagNames.CurrentContext, &overrides.CurrentContext},
		stringFlag{flagNames.Timeout, &overrides.Timeout})
}

// stringFlag pairs a flag description with the string it fills.
type stringFlag struct {
	info   FlagInfo
	target *string
}

// bindStrings binds each string flag in order, marking it secret when
// secret is set.
func bindStrings(flags *pflag.FlagSet, secret bool, all ...stringFlag) {
	for _, sf := range all {
		bound := sf.info.BindStringFlag(flags, sf.target)
		if secret {
			bound.AddSecretAnnotation(flags)
		}
	}
}

// BindAuthInfoFlags registers the user flags on flags, writing into
// authInfo. All of them are marked as secrets.
func BindAuthInfoFlags(authInfo *clientcmdapi.AuthInfo, flags *pflag.FlagSet, flagNames AuthOverrideFlags) {
	bindStrings(flags, true,
		stringFlag{flagNames.ClientCertificate, &authInfo.ClientCertificate},
		stringFlag{flagNames.ClientKey, &authInfo.ClientKey},
		stringFlag{flagNames.Token, &authInfo.Token},
		stringFlag{flagNames.Impersonate, &authInfo.Impersonate},
		stringFlag{flagNames.ImpersonateUID, &authInfo.ImpersonateUID})
	flagNames.ImpersonateGroups.BindStringArrayFlag(flags, &authInfo.ImpersonateGroups).AddSecretAnnotation(flags)
	bindStrings(flags, true,
		stringFlag{flagNames.Username, &authInfo.Username},
		stringFlag{flagNames.Password, &authInfo.Password})
}

// BindClusterFlags registers the cluster flags on flags, writing into
// clusterInfo.
func BindClusterFlags(clusterInfo *clientcmdapi.Cluster, flags *pflag.FlagSet, flagNames ClusterOverrideFlags) {
	bindStrings(flags, false,
		stringFlag{flagNames.APIServer, &clusterInfo.Server},
		stringFlag{flagNames.CertificateAuthority, &clusterInfo.CertificateAuthority})
	flagNames.InsecureSkipTLSVerify.BindBoolFlag(flags, &clusterInfo.InsecureSkipTLSVerify)
	bindStrings(flags, false,
		stringFlag{flagNames.TLSServerName, &clusterInfo.TLSServerName},
		stringFlag{flagNames.ProxyURL, &clusterInfo.ProxyURL})
	flagNames.DisableCompression.BindBoolFlag(flags, &clusterInfo.DisableCompression)
}

// BindContextFlags registers the context flags on flags, writing into
// contextInfo. The namespace flag accepts "ns/x", "namespace/x" and
// "namespaces/x" as x.
func BindContextFlags(contextInfo *clientcmdapi.Context, flags *pflag.FlagSet, flagNames ContextOverrideFlags) {
	bindStrings(flags, false,
		stringFlag{flagNames.ClusterName, &contextInfo.Cluster},
		stringFlag{flagNames.AuthInfoName, &contextInfo.AuthInfo})
	flagNames.Namespace.BindTransformingStringFlag(flags, &contextInfo.Namespace, RemoveNamespacesPrefix)
}

// RemoveNamespacesPrefix strips one leading "namespaces/", "namespace/" or
// "ns/" (in any letter case) from value, provided something follows it.
func RemoveNamespacesPrefix(value string) (string, error) {
	for _, prefix := range []string{"namespaces/", "namespace/", "ns/"} {
		if len(value) > len(prefix) && strings.EqualFold(value[:len(prefix)], prefix) {
			return value[len(prefix):], nil
		}
	}
	return value, nil
}

// transformedString is a pflag.Value that rewrites each value with a
// transformer before storing it.
type transformedString struct {
	target      *string
	transformer func(string) (string, error)
}

func (v *transformedString) Set(raw string) error {
	transformed, err := v.transformer(raw)
	if err != nil {
		return err
	}
	*v.target = transformed
	return nil
}

func (v *transformedString) Type() string { return "string" }

func (v *transformedString) String() string { return *v.target }
