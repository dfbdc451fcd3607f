package v1beta1

import (
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
)

// DeepCopyInto copies in into out; in must not be nil.
func (in *ExecCredential) DeepCopyInto(out *ExecCredential) {
	*out = *in
	in.Spec.DeepCopyInto(&out.Spec)
	out.Status = in.Status.DeepCopy()
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *ExecCredential) DeepCopy() *ExecCredential {
	if in == nil {
		return nil
	}
	out := new(ExecCredential)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *ExecCredential) DeepCopyObject() runtime.Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *ExecCredentialSpec) DeepCopyInto(out *ExecCredentialSpec) {
	*out = *in
	out.Cluster = in.Cluster.DeepCopy()
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *ExecCredentialSpec) DeepCopy() *ExecCredentialSpec {
	if in == nil {
		return nil
	}
	out := new(ExecCredentialSpec)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *ExecCredentialStatus) DeepCopyInto(out *ExecCredentialStatus) {
	*out = *in
	if in.ExpirationTimestamp != nil {
		out.ExpirationTimestamp = in.ExpirationTimestamp.DeepCopy()
	}
}

// DeepCopy returns an independent copy of in, or nil for nil.
func (in *ExecCredentialStatus) DeepCopy() *ExecCredentialStatus {
	if in == nil {
		return nil
	}
	out := new(ExecCredentialStatus)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out; in must not be nil.
func (in *Cluster) DeepCopyInto(out *Cluster) {
	*out = *in
	out.CertificateAuthorityData = slices.Clone(in.CertificateAuthorityData)
	in.Config.DeepCopyInto(&out.Config)
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
