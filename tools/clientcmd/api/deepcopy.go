package api

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
)

// copyObjects returns an independent copy of a map of extension objects,
// keeping nil maps nil.
func copyObjects(in map[string]runtime.Object) map[string]runtime.Object {
	if in == nil {
		return nil
	}
	out := make(map[string]runtime.Object, len(in))
	for k, v := range in {
		if v == nil {
			out[k] = nil
			continue
		}
		out[k] = v.DeepCopyObject()
	}
	return out
}

// copyPointers deep-copies a map of pointers with the given element copier.
func copyPointers[T any](in map[string]*T, copyOne func(*T) *T) map[string]*T {
	if in == nil {
		return nil
	}
	out := make(map[string]*T, len(in))
	for k, v := range in {
		out[k] = copyOne(v)
	}
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *Config) DeepCopyInto(out *Config) {
	*out = *in
	in.Preferences.DeepCopyInto(&out.Preferences)
	out.Clusters = copyPointers(in.Clusters, (*Cluster).DeepCopy)
	out.AuthInfos = copyPointers(in.AuthInfos, (*AuthInfo).DeepCopy)
	out.Contexts = copyPointers(in.Contexts, (*Context).DeepCopy)
	out.Extensions = copyObjects(in.Extensions)
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
	out.Extensions = copyObjects(in.Extensions)
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
	out.Extensions = copyObjects(in.Extensions)
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
	out.Extensions = copyObjects(in.Extensions)
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
	out.Extensions = copyObjects(in.Extensions)
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
	if in.Config != nil {
		out.Config = in.Config.DeepCopyObject()
	}
	in.PluginPolicy.DeepCopyInto(&out.PluginPolicy)
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

// DeepCopyInto copies in into out; in must not be nil.
func (in *PluginPolicy) DeepCopyInto(out *PluginPolicy) {
	*out = *in
	out.Allowlist = slices.Clone(in.Allowlist)
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *PluginPolicy) DeepCopy() *PluginPolicy {
	if in == nil {
		return nil
	}
	out := new(PluginPolicy)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *AllowlistEntry) DeepCopyInto(out *AllowlistEntry) { *out = *in }

// DeepCopy returns a copy of in, or nil for nil.
func (in *AllowlistEntry) DeepCopy() *AllowlistEntry {
	if in == nil {
		return nil
	}
	out := *in
	return &out
}
