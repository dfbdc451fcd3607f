package v1

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/tools/clientcmd/api"
)

// convertFunc is the shape of every conversion function in this package.
type convertFunc[In, Out any] func(in *In, out *Out, s conversion.Scope) error

// register adds a pair of conversion functions, one per direction, to
// scheme. Generated-style pairs are registered as generated conversions,
// the list/map helpers as explicit conversion functions.
func register[A, B any](scheme *runtime.Scheme, generated bool, aToB convertFunc[A, B], bToA convertFunc[B, A]) error {
	add := scheme.AddConversionFunc
	if generated {
		add = scheme.AddGeneratedConversionFunc
	}
	if err := add((*A)(nil), (*B)(nil), func(a, b interface{}, s conversion.Scope) error {
		return aToB(a.(*A), b.(*B), s)
	}); err != nil {
		return err
	}
	return add((*B)(nil), (*A)(nil), func(b, a interface{}, s conversion.Scope) error {
		return bToA(b.(*B), a.(*A), s)
	})
}

// RegisterConversions installs the conversions between the v1 and internal
// kubeconfig types in scheme.
func RegisterConversions(s *runtime.Scheme) error {
	for _, fn := range []func() error{
		func() error {
			return register(s, true, Convert_v1_AuthInfo_To_api_AuthInfo, Convert_api_AuthInfo_To_v1_AuthInfo)
		},
		func() error {
			return register(s, true, Convert_v1_AuthProviderConfig_To_api_AuthProviderConfig, Convert_api_AuthProviderConfig_To_v1_AuthProviderConfig)
		},
		func() error {
			return register(s, true, Convert_v1_Cluster_To_api_Cluster, Convert_api_Cluster_To_v1_Cluster)
		},
		func() error {
			return register(s, true, Convert_v1_Config_To_api_Config, Convert_api_Config_To_v1_Config)
		},
		func() error {
			return register(s, true, Convert_v1_Context_To_api_Context, Convert_api_Context_To_v1_Context)
		},
		func() error {
			return register(s, true, Convert_v1_ExecConfig_To_api_ExecConfig, Convert_api_ExecConfig_To_v1_ExecConfig)
		},
		func() error {
			return register(s, true, Convert_v1_ExecEnvVar_To_api_ExecEnvVar, Convert_api_ExecEnvVar_To_v1_ExecEnvVar)
		},
		func() error {
			return register(s, true, Convert_v1_Preferences_To_api_Preferences, Convert_api_Preferences_To_v1_Preferences)
		},
		func() error {
			return register(s, false, Convert_Slice_v1_NamedAuthInfo_To_Map_string_To_Pointer_api_AuthInfo, Convert_Map_string_To_Pointer_api_AuthInfo_To_Slice_v1_NamedAuthInfo)
		},
		func() error {
			return register(s, false, Convert_Slice_v1_NamedCluster_To_Map_string_To_Pointer_api_Cluster, Convert_Map_string_To_Pointer_api_Cluster_To_Slice_v1_NamedCluster)
		},
		func() error {
			return register(s, false, Convert_Slice_v1_NamedContext_To_Map_string_To_Pointer_api_Context, Convert_Map_string_To_Pointer_api_Context_To_Slice_v1_NamedContext)
		},
		func() error {
			return register(s, false, Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object, Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension)
		},
	} {
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// Config

// Convert_v1_Config_To_api_Config converts a serialized Config into the
// internal form. Kind and APIVersion are not carried over.
func Convert_v1_Config_To_api_Config(in *Config, out *api.Config, s conversion.Scope) error {
	if err := Convert_v1_Preferences_To_api_Preferences(&in.Preferences, &out.Preferences, s); err != nil {
		return err
	}
	if err := Convert_Slice_v1_NamedCluster_To_Map_string_To_Pointer_api_Cluster(&in.Clusters, &out.Clusters, s); err != nil {
		return err
	}
	if err := Convert_Slice_v1_NamedAuthInfo_To_Map_string_To_Pointer_api_AuthInfo(&in.AuthInfos, &out.AuthInfos, s); err != nil {
		return err
	}
	if err := Convert_Slice_v1_NamedContext_To_Map_string_To_Pointer_api_Context(&in.Contexts, &out.Contexts, s); err != nil {
		return err
	}
	out.CurrentContext = in.CurrentContext
	return Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object(&in.Extensions, &out.Extensions, s)
}

// Convert_api_Config_To_v1_Config converts an internal Config into its
// serialized form, with every named list sorted by name. Kind and
// APIVersion are not carried over.
func Convert_api_Config_To_v1_Config(in *api.Config, out *Config, s conversion.Scope) error {
	if err := Convert_api_Preferences_To_v1_Preferences(&in.Preferences, &out.Preferences, s); err != nil {
		return err
	}
	if err := Convert_Map_string_To_Pointer_api_Cluster_To_Slice_v1_NamedCluster(&in.Clusters, &out.Clusters, s); err != nil {
		return err
	}
	if err := Convert_Map_string_To_Pointer_api_AuthInfo_To_Slice_v1_NamedAuthInfo(&in.AuthInfos, &out.AuthInfos, s); err != nil {
		return err
	}
	if err := Convert_Map_string_To_Pointer_api_Context_To_Slice_v1_NamedContext(&in.Contexts, &out.Contexts, s); err != nil {
		return err
	}
	out.CurrentContext = in.CurrentContext
	return Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension(&in.Extensions, &out.Extensions, s)
}

// Preferences

// Convert_v1_Preferences_To_api_Preferences converts serialized preferences
// into the internal form.
func Convert_v1_Preferences_To_api_Preferences(in *Preferences, out *api.Preferences, s conversion.Scope) error {
	out.Colors = in.Colors
	return Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object(&in.Extensions, &out.Extensions, s)
}

// Convert_api_Preferences_To_v1_Preferences converts internal preferences
// into the serialized form.
func Convert_api_Preferences_To_v1_Preferences(in *api.Preferences, out *Preferences, s conversion.Scope) error {
	out.Colors = in.Colors
	return Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension(&in.Extensions, &out.Extensions, s)
}

// Cluster

// Convert_v1_Cluster_To_api_Cluster converts a serialized cluster into the
// internal form.
func Convert_v1_Cluster_To_api_Cluster(in *Cluster, out *api.Cluster, s conversion.Scope) error {
	out.Server = in.Server
	out.TLSServerName = in.TLSServerName
	out.InsecureSkipTLSVerify = in.InsecureSkipTLSVerify
	out.CertificateAuthority = in.CertificateAuthority
	out.CertificateAuthorityData = in.CertificateAuthorityData
	out.ProxyURL = in.ProxyURL
	out.DisableCompression = in.DisableCompression
	return Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object(&in.Extensions, &out.Extensions, s)
}

// Convert_api_Cluster_To_v1_Cluster converts an internal cluster into the
// serialized form. LocationOfOrigin is dropped.
func Convert_api_Cluster_To_v1_Cluster(in *api.Cluster, out *Cluster, s conversion.Scope) error {
	out.Server = in.Server
	out.TLSServerName = in.TLSServerName
	out.InsecureSkipTLSVerify = in.InsecureSkipTLSVerify
	out.CertificateAuthority = in.CertificateAuthority
	out.CertificateAuthorityData = in.CertificateAuthorityData
	out.ProxyURL = in.ProxyURL
	out.DisableCompression = in.DisableCompression
	return Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension(&in.Extensions, &out.Extensions, s)
}

// AuthInfo

// Convert_v1_AuthInfo_To_api_AuthInfo converts a serialized user into the
// internal form.
func Convert_v1_AuthInfo_To_api_AuthInfo(in *AuthInfo, out *api.AuthInfo, s conversion.Scope) error {
	out.ClientCertificate = in.ClientCertificate
	out.ClientCertificateData = in.ClientCertificateData
	out.ClientKey = in.ClientKey
	out.ClientKeyData = in.ClientKeyData
	out.Token = in.Token
	out.TokenFile = in.TokenFile
	out.Impersonate = in.Impersonate
	out.ImpersonateUID = in.ImpersonateUID
	out.ImpersonateGroups = in.ImpersonateGroups
	out.ImpersonateUserExtra = in.ImpersonateUserExtra
	out.Username = in.Username
	out.Password = in.Password
	out.AuthProvider = nil
	if in.AuthProvider != nil {
		out.AuthProvider = new(api.AuthProviderConfig)
		if err := Convert_v1_AuthProviderConfig_To_api_AuthProviderConfig(in.AuthProvider, out.AuthProvider, s); err != nil {
			return err
		}
	}
	out.Exec = nil
	if in.Exec != nil {
		out.Exec = new(api.ExecConfig)
		if err := Convert_v1_ExecConfig_To_api_ExecConfig(in.Exec, out.Exec, s); err != nil {
			return err
		}
	}
	return Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object(&in.Extensions, &out.Extensions, s)
}

// Convert_api_AuthInfo_To_v1_AuthInfo converts an internal user into the
// serialized form. LocationOfOrigin is dropped.
func Convert_api_AuthInfo_To_v1_AuthInfo(in *api.AuthInfo, out *AuthInfo, s conversion.Scope) error {
	out.ClientCertificate = in.ClientCertificate
	out.ClientCertificateData = in.ClientCertificateData
	out.ClientKey = in.ClientKey
	out.ClientKeyData = in.ClientKeyData
	out.Token = in.Token
	out.TokenFile = in.TokenFile
	out.Impersonate = in.Impersonate
	out.ImpersonateUID = in.ImpersonateUID
	out.ImpersonateGroups = in.ImpersonateGroups
	out.ImpersonateUserExtra = in.ImpersonateUserExtra
	out.Username = in.Username
	out.Password = in.Password
	out.AuthProvider = nil
	if in.AuthProvider != nil {
		out.AuthProvider = new(AuthProviderConfig)
		if err := Convert_api_AuthProviderConfig_To_v1_AuthProviderConfig(in.AuthProvider, out.AuthProvider, s); err != nil {
			return err
		}
	}
	out.Exec = nil
	if in.Exec != nil {
		out.Exec = new(ExecConfig)
		if err := Convert_api_ExecConfig_To_v1_ExecConfig(in.Exec, out.Exec, s); err != nil {
			return err
		}
	}
	return Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension(&in.Extensions, &out.Extensions, s)
}

// Context

// Convert_v1_Context_To_api_Context converts a serialized context into the
// internal form.
func Convert_v1_Context_To_api_Context(in *Context, out *api.Context, s conversion.Scope) error {
	out.Cluster = in.Cluster
	out.AuthInfo = in.AuthInfo
	out.Namespace = in.Namespace
	return Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object(&in.Extensions, &out.Extensions, s)
}

// Convert_api_Context_To_v1_Context converts an internal context into the
// serialized form. LocationOfOrigin is dropped.
func Convert_api_Context_To_v1_Context(in *api.Context, out *Context, s conversion.Scope) error {
	out.Cluster = in.Cluster
	out.AuthInfo = in.AuthInfo
	out.Namespace = in.Namespace
	return Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension(&in.Extensions, &out.Extensions, s)
}

// AuthProviderConfig

// Convert_v1_AuthProviderConfig_To_api_AuthProviderConfig converts a
// serialized auth-provider entry into the internal form.
func Convert_v1_AuthProviderConfig_To_api_AuthProviderConfig(in *AuthProviderConfig, out *api.AuthProviderConfig, s conversion.Scope) error {
	out.Name = in.Name
	out.Config = in.Config
	return nil
}

// Convert_api_AuthProviderConfig_To_v1_AuthProviderConfig converts an
// internal auth-provider entry into the serialized form.
func Convert_api_AuthProviderConfig_To_v1_AuthProviderConfig(in *api.AuthProviderConfig, out *AuthProviderConfig, s conversion.Scope) error {
	out.Name = in.Name
	out.Config = in.Config
	return nil
}

// ExecConfig

// Convert_v1_ExecConfig_To_api_ExecConfig converts a serialized exec plugin
// entry into the internal form. The internal-only fields (Config,
// StdinUnavailable, StdinUnavailableMessage, PluginPolicy) are left alone.
func Convert_v1_ExecConfig_To_api_ExecConfig(in *ExecConfig, out *api.ExecConfig, s conversion.Scope) error {
	out.Command = in.Command
	out.Args = in.Args
	out.Env = nil
	if in.Env != nil {
		out.Env = make([]api.ExecEnvVar, len(in.Env))
		for i := range in.Env {
			if err := Convert_v1_ExecEnvVar_To_api_ExecEnvVar(&in.Env[i], &out.Env[i], s); err != nil {
				return err
			}
		}
	}
	out.APIVersion = in.APIVersion
	out.InstallHint = in.InstallHint
	out.ProvideClusterInfo = in.ProvideClusterInfo
	out.InteractiveMode = api.ExecInteractiveMode(in.InteractiveMode)
	return nil
}

// Convert_api_ExecConfig_To_v1_ExecConfig converts an internal exec plugin
// entry into the serialized form; internal-only fields are dropped.
func Convert_api_ExecConfig_To_v1_ExecConfig(in *api.ExecConfig, out *ExecConfig, s conversion.Scope) error {
	out.Command = in.Command
	out.Args = in.Args
	out.Env = nil
	if in.Env != nil {
		out.Env = make([]ExecEnvVar, len(in.Env))
		for i := range in.Env {
			if err := Convert_api_ExecEnvVar_To_v1_ExecEnvVar(&in.Env[i], &out.Env[i], s); err != nil {
				return err
			}
		}
	}
	out.APIVersion = in.APIVersion
	out.InstallHint = in.InstallHint
	out.ProvideClusterInfo = in.ProvideClusterInfo
	out.InteractiveMode = ExecInteractiveMode(in.InteractiveMode)
	return nil
}

// Convert_v1_ExecEnvVar_To_api_ExecEnvVar converts one environment variable.
func Convert_v1_ExecEnvVar_To_api_ExecEnvVar(in *ExecEnvVar, out *api.ExecEnvVar, s conversion.Scope) error {
	out.Name, out.Value = in.Name, in.Value
	return nil
}

// Convert_api_ExecEnvVar_To_v1_ExecEnvVar converts one environment variable.
func Convert_api_ExecEnvVar_To_v1_ExecEnvVar(in *api.ExecEnvVar, out *ExecEnvVar, s conversion.Scope) error {
	out.Name, out.Value = in.Name, in.Value
	return nil
}

// Named lists <-> maps

// listToMap adds each named item of in to *out, creating the map on first
// use. A name seen twice is an error naming the conversion (what) and the
// name.
func listToMap[Item, Value any](in []Item, out *map[string]Value, what string, key func(*Item) string, convert func(*Item) (Value, error)) error {
	for i := range in {
		name := key(&in[i])
		if *out == nil {
			*out = make(map[string]Value)
		}
		if _, dup := (*out)[name]; dup {
			return fmt.Errorf("error converting *[]%s: duplicate name %q in list", what, name)
		}
		v, err := convert(&in[i])
		if err != nil {
			return err
		}
		(*out)[name] = v
	}
	return nil
}

// mapToList appends the entries of in to *out in name order.
func mapToList[Value, Item any](in map[string]Value, out *[]Item, convert func(string, Value) (Item, error)) error {
	names := make([]string, 0, len(in))
	for name := range in {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		item, err := convert(name, in[name])
		if err != nil {
			return err
		}
		*out = append(*out, item)
	}
	return nil
}

// Convert_Slice_v1_NamedCluster_To_Map_string_To_Pointer_api_Cluster turns
// the clusters list into a map keyed by name; duplicate names are an error.
func Convert_Slice_v1_NamedCluster_To_Map_string_To_Pointer_api_Cluster(in *[]NamedCluster, out *map[string]*api.Cluster, s conversion.Scope) error {
	return listToMap(*in, out, "NamedCluster into *map[string]*api.Cluster", func(n *NamedCluster) string { return n.Name },
		func(n *NamedCluster) (*api.Cluster, error) {
			c := api.NewCluster()
			return c, Convert_v1_Cluster_To_api_Cluster(&n.Cluster, c, s)
		})
}

// Convert_Map_string_To_Pointer_api_Cluster_To_Slice_v1_NamedCluster turns
// the clusters map into a list sorted by name.
func Convert_Map_string_To_Pointer_api_Cluster_To_Slice_v1_NamedCluster(in *map[string]*api.Cluster, out *[]NamedCluster, s conversion.Scope) error {
	return mapToList(*in, out, func(name string, c *api.Cluster) (NamedCluster, error) {
		item := NamedCluster{Name: name}
		if c == nil {
			return item, nil
		}
		err := Convert_api_Cluster_To_v1_Cluster(c, &item.Cluster, s)
		return item, err
	})
}

// Convert_Slice_v1_NamedAuthInfo_To_Map_string_To_Pointer_api_AuthInfo
// turns the users list into a map keyed by name; duplicate names are an
// error.
func Convert_Slice_v1_NamedAuthInfo_To_Map_string_To_Pointer_api_AuthInfo(in *[]NamedAuthInfo, out *map[string]*api.AuthInfo, s conversion.Scope) error {
	return listToMap(*in, out, "NamedAuthInfo into *map[string]*api.AuthInfo", func(n *NamedAuthInfo) string { return n.Name },
		func(n *NamedAuthInfo) (*api.AuthInfo, error) {
			a := api.NewAuthInfo()
			return a, Convert_v1_AuthInfo_To_api_AuthInfo(&n.AuthInfo, a, s)
		})
}

// Convert_Map_string_To_Pointer_api_AuthInfo_To_Slice_v1_NamedAuthInfo
// turns the users map into a list sorted by name.
func Convert_Map_string_To_Pointer_api_AuthInfo_To_Slice_v1_NamedAuthInfo(in *map[string]*api.AuthInfo, out *[]NamedAuthInfo, s conversion.Scope) error {
	return mapToList(*in, out, func(name string, a *api.AuthInfo) (NamedAuthInfo, error) {
		item := NamedAuthInfo{Name: name}
		if a == nil {
			return item, nil
		}
		err := Convert_api_AuthInfo_To_v1_AuthInfo(a, &item.AuthInfo, s)
		return item, err
	})
}

// Convert_Slice_v1_NamedContext_To_Map_string_To_Pointer_api_Context turns
// the contexts list into a map keyed by name; duplicate names are an error.
func Convert_Slice_v1_NamedContext_To_Map_string_To_Pointer_api_Context(in *[]NamedContext, out *map[string]*api.Context, s conversion.Scope) error {
	return listToMap(*in, out, "NamedContext into *map[string]*api.Context", func(n *NamedContext) string { return n.Name },
		func(n *NamedContext) (*api.Context, error) {
			c := api.NewContext()
			return c, Convert_v1_Context_To_api_Context(&n.Context, c, s)
		})
}

// Convert_Map_string_To_Pointer_api_Context_To_Slice_v1_NamedContext turns
// the contexts map into a list sorted by name.
func Convert_Map_string_To_Pointer_api_Context_To_Slice_v1_NamedContext(in *map[string]*api.Context, out *[]NamedContext, s conversion.Scope) error {
	return mapToList(*in, out, func(name string, c *api.Context) (NamedContext, error) {
		item := NamedContext{Name: name}
		if c == nil {
			return item, nil
		}
		err := Convert_api_Context_To_v1_Context(c, &item.Context, s)
		return item, err
	})
}

// Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object turns an
// extensions list into a map keyed by name. Raw extension bytes become
// *runtime.Unknown objects; duplicate names are an error.
func Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object(in *[]NamedExtension, out *map[string]runtime.Object, s conversion.Scope) error {
	return listToMap(*in, out, "NamedExtension into *map[string]runtime.Object", func(n *NamedExtension) string { return n.Name },
		func(n *NamedExtension) (runtime.Object, error) {
			var obj runtime.Object
			err := runtime.Convert_runtime_RawExtension_To_runtime_Object(&n.Extension, &obj, s)
			return obj, err
		})
}

// Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension turns an
// extensions map into a list sorted by name.
func Convert_Map_string_To_runtime_Object_To_Slice_v1_NamedExtension(in *map[string]runtime.Object, out *[]NamedExtension, s conversion.Scope) error {
	return mapToList(*in, out, func(name string, obj runtime.Object) (NamedExtension, error) {
		item := NamedExtension{Name: name}
		err := runtime.Convert_runtime_Object_To_runtime_RawExtension(&obj, &item.Extension, s)
		return item, err
	})
}
