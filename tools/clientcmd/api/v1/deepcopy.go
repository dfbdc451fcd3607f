package v1

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
)

// copyExtensions deep-copies an extensions list, keeping nil lists nil.
func copyExtensions(in []NamedExtension) []NamedExtension {
	if in == nil {
		return nil
	}
	out := make([]NamedExtension, len(in))
	for i := range in {
		in[i].DeepCopyInto(&out[i])
	}
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *Config) DeepCopyInto(out *Config) {
	*out = *in
	in.Preferences.DeepCopyInto(&out.Preferences)
	if in.Clusters != nil {
		out.Clusters = make([]NamedCluster, len(in.Clusters))
		for i := range in.Clusters {
			in.Clusters[i].DeepCopyInto(&out.Clusters[i])
		}
	}
	if in.AuthInfos != nil {
		out.AuthInfos = make([]NamedAuthInfo, len(in.AuthInfos))
		for i := range in.AuthInfos {
			in.AuthInfos[i].DeepCopyInto(&out.AuthInfos[i])
		}
	}
	if in.Contexts != nil {
		out.Contexts = make([]NamedContext, len(in.Contexts))
		for i := range in.Contexts {
			in.Contexts[i].DeepCopyInto(&out.Contexts[i])
		}
	}
	out.Extensions = copyExtensions(in.Extensions)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *Config) DeepCopy() *Config {
	if in == nil {
		return nil
	}
	out := new(Config)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Config) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *Preferences) DeepCopyInto(out *Preferences) {
	*out = *in
	out.Extensions = copyExtensions(in.Extensions)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *Preferences) DeepCopy() *Preferences {
	if in == nil {
		return nil
	}
	out := new(Preferences)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *Cluster) DeepCopyInto(out *Cluster) {
	*out = *in
	out.CertificateAuthorityData = slices.Clone(in.CertificateAuthorityData)
	out.Extensions = copyExtensions(in.Extensions)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *Cluster) DeepCopy() *Cluster {
	if in == nil {
		return nil
	}
	out := new(Cluster)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *AuthInfo) DeepCopyInto(out *AuthInfo) {
	*out = *in
	out.ClientCertificateData = slices.Clone(in.ClientCertificateData)
	out.ClientKeyData = slices.Clone(in.ClientKeyData)
	out.ImpersonateGroups = slices.Clone(in.ImpersonateGroups)
	if in.ImpersonateUserExtra != nil {
		out.ImpersonateUserExtra = make(map[string][]string, len(in.ImpersonateUserExtra))
		for k, v := range in.ImpersonateUserExtra {
			out.ImpersonateUserExtra[k] = slices.Clone(v)
		}
	}
	out.AuthProvider = in.AuthProvider.DeepCopy()
	out.Exec = in.Exec.DeepCopy()
	out.Extensions = copyExtensions(in.Extensions)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *AuthInfo) DeepCopy() *AuthInfo {
	if in == nil {
		return nil
	}
	out := new(AuthInfo)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *Context) DeepCopyInto(out *Context) {
	*out = *in
	out.Extensions = copyExtensions(in.Extensions)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *Context) DeepCopy() *Context {
	if in == nil {
		return nil
	}
	out := new(Context)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *NamedCluster) DeepCopyInto(out *NamedCluster) {
	out.Name = in.Name
	in.Cluster.DeepCopyInto(&out.Cluster)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *NamedCluster) DeepCopy() *NamedCluster {
	if in == nil {
		return nil
	}
	out := new(NamedCluster)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *NamedContext) DeepCopyInto(out *NamedContext) {
	out.Name = in.Name
	in.Context.DeepCopyInto(&out.Context)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *NamedContext) DeepCopy() *NamedContext {
	if in == nil {
		return nil
	}
	out := new(NamedContext)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *NamedAuthInfo) DeepCopyInto(out *NamedAuthInfo) {
	out.Name = in.Name
	in.AuthInfo.DeepCopyInto(&out.AuthInfo)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *NamedAuthInfo) DeepCopy() *NamedAuthInfo {
	if in == nil {
		return nil
	}
	out := new(NamedAuthInfo)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *NamedExtension) DeepCopyInto(out *NamedExtension) {
	out.Name = in.Name
	in.Extension.DeepCopyInto(&out.Extension)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *NamedExtension) DeepCopy() *NamedExtension {
	if in == nil {
		return nil
	}
	out := new(NamedExtension)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *AuthProviderConfig) DeepCopyInto(out *AuthProviderConfig) {
	*out = *in
	if in.Config != nil {
		out.Config = maps.Clone(in.Config)
	}
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *AuthProviderConfig) DeepCopy() *AuthProviderConfig {
	if in == nil {
		return nil
	}
	out := new(AuthProviderConfig)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *ExecConfig) DeepCopyInto(out *ExecConfig) {
	*out = *in
	out.Args = slices.Clone(in.Args)
	out.Env = slices.Clone(in.Env)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *ExecConfig) DeepCopy() *ExecConfig {
	if in == nil {
		return nil
	}
	out := new(ExecConfig)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *ExecEnvVar) DeepCopyInto(out *ExecEnvVar) { *out = *in }

// DeepCopy returns a copy of in, or nil for nil.
func (in *ExecEnvVar) DeepCopy() *ExecEnvVar {
	if in == nil {
		return nil
	}
	out := *in
	return &out
}
