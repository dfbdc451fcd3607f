package v1beta1

import (
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/pkg/apis/clientauthentication"
)

// RegisterConversions installs the conversions between this version and
// the internal types in s.
func RegisterConversions(s *runtime.Scheme) error {
	pairs := []struct {
		a, b interface{}
		fn   conversion.ConversionFunc
	}{
		{(*ExecCredential)(nil), (*clientauthentication.ExecCredential)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_v1beta1_ExecCredential_To_clientauthentication_ExecCredential(a.(*ExecCredential), b.(*clientauthentication.ExecCredential), scope)
		}},
		{(*clientauthentication.ExecCredential)(nil), (*ExecCredential)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_clientauthentication_ExecCredential_To_v1beta1_ExecCredential(a.(*clientauthentication.ExecCredential), b.(*ExecCredential), scope)
		}},
		{(*ExecCredentialSpec)(nil), (*clientauthentication.ExecCredentialSpec)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_v1beta1_ExecCredentialSpec_To_clientauthentication_ExecCredentialSpec(a.(*ExecCredentialSpec), b.(*clientauthentication.ExecCredentialSpec), scope)
		}},
		{(*clientauthentication.ExecCredentialSpec)(nil), (*ExecCredentialSpec)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_clientauthentication_ExecCredentialSpec_To_v1beta1_ExecCredentialSpec(a.(*clientauthentication.ExecCredentialSpec), b.(*ExecCredentialSpec), scope)
		}},
		{(*ExecCredentialStatus)(nil), (*clientauthentication.ExecCredentialStatus)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_v1beta1_ExecCredentialStatus_To_clientauthentication_ExecCredentialStatus(a.(*ExecCredentialStatus), b.(*clientauthentication.ExecCredentialStatus), scope)
		}},
		{(*clientauthentication.ExecCredentialStatus)(nil), (*ExecCredentialStatus)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_clientauthentication_ExecCredentialStatus_To_v1beta1_ExecCredentialStatus(a.(*clientauthentication.ExecCredentialStatus), b.(*ExecCredentialStatus), scope)
		}},
		{(*Cluster)(nil), (*clientauthentication.Cluster)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_v1beta1_Cluster_To_clientauthentication_Cluster(a.(*Cluster), b.(*clientauthentication.Cluster), scope)
		}},
		{(*clientauthentication.Cluster)(nil), (*Cluster)(nil), func(a, b interface{}, scope conversion.Scope) error {
			return Convert_clientauthentication_Cluster_To_v1beta1_Cluster(a.(*clientauthentication.Cluster), b.(*Cluster), scope)
		}},
	}
	for _, p := range pairs {
		if err := s.AddGeneratedConversionFunc(p.a, p.b, p.fn); err != nil {
			return err
		}
	}
	return nil
}

// Convert_v1beta1_ExecCredential_To_clientauthentication_ExecCredential converts
// a wire ExecCredential into the internal form.
func Convert_v1beta1_ExecCredential_To_clientauthentication_ExecCredential(in *ExecCredential, out *clientauthentication.ExecCredential, s conversion.Scope) error {
	out.TypeMeta = in.TypeMeta
	if err := Convert_v1beta1_ExecCredentialSpec_To_clientauthentication_ExecCredentialSpec(&in.Spec, &out.Spec, s); err != nil {
		return err
	}
	out.Status = nil
	if in.Status != nil {
		out.Status = new(clientauthentication.ExecCredentialStatus)
		return Convert_v1beta1_ExecCredentialStatus_To_clientauthentication_ExecCredentialStatus(in.Status, out.Status, s)
	}
	return nil
}

// Convert_clientauthentication_ExecCredential_To_v1beta1_ExecCredential converts
// an internal ExecCredential into the wire form.
func Convert_clientauthentication_ExecCredential_To_v1beta1_ExecCredential(in *clientauthentication.ExecCredential, out *ExecCredential, s conversion.Scope) error {
	out.TypeMeta = in.TypeMeta
	if err := Convert_clientauthentication_ExecCredentialSpec_To_v1beta1_ExecCredentialSpec(&in.Spec, &out.Spec, s); err != nil {
		return err
	}
	out.Status = nil
	if in.Status != nil {
		out.Status = new(ExecCredentialStatus)
		return Convert_clientauthentication_ExecCredentialStatus_To_v1beta1_ExecCredentialStatus(in.Status, out.Status, s)
	}
	return nil
}

// Convert_v1beta1_ExecCredentialSpec_To_clientauthentication_ExecCredentialSpec
// converts a wire spec into the internal form.
func Convert_v1beta1_ExecCredentialSpec_To_clientauthentication_ExecCredentialSpec(in *ExecCredentialSpec, out *clientauthentication.ExecCredentialSpec, s conversion.Scope) error {
	out.Interactive = in.Interactive
	out.Cluster = nil
	if in.Cluster != nil {
		out.Cluster = new(clientauthentication.Cluster)
		return Convert_v1beta1_Cluster_To_clientauthentication_Cluster(in.Cluster, out.Cluster, s)
	}
	return nil
}

// Convert_clientauthentication_ExecCredentialSpec_To_v1beta1_ExecCredentialSpec
// converts an internal spec into the wire form.
func Convert_clientauthentication_ExecCredentialSpec_To_v1beta1_ExecCredentialSpec(in *clientauthentication.ExecCredentialSpec, out *ExecCredentialSpec, s conversion.Scope) error {
	out.Interactive = in.Interactive
	out.Cluster = nil
	if in.Cluster != nil {
		out.Cluster = new(Cluster)
		return Convert_clientauthentication_Cluster_To_v1beta1_Cluster(in.Cluster, out.Cluster, s)
	}
	return nil
}

// Convert_v1beta1_ExecCredentialStatus_To_clientauthentication_ExecCredentialStatus
// converts wire credentials into the internal form.
func Convert_v1beta1_ExecCredentialStatus_To_clientauthentication_ExecCredentialStatus(in *ExecCredentialStatus, out *clientauthentication.ExecCredentialStatus, s conversion.Scope) error {
	out.ExpirationTimestamp = in.ExpirationTimestamp
	out.Token = in.Token
	out.ClientCertificateData = in.ClientCertificateData
	out.ClientKeyData = in.ClientKeyData
	return nil
}

// Convert_clientauthentication_ExecCredentialStatus_To_v1beta1_ExecCredentialStatus
// converts internal credentials into the wire form.
func Convert_clientauthentication_ExecCredentialStatus_To_v1beta1_ExecCredentialStatus(in *clientauthentication.ExecCredentialStatus, out *ExecCredentialStatus, s conversion.Scope) error {
	out.ExpirationTimestamp = in.ExpirationTimestamp
	out.Token = in.Token
	out.ClientCertificateData = in.ClientCertificateData
	out.ClientKeyData = in.ClientKeyData
	return nil
}

// Convert_v1beta1_Cluster_To_clientauthentication_Cluster converts wire cluster
// information into the internal form; raw config bytes become a
// *runtime.Unknown.
func Convert_v1beta1_Cluster_To_clientauthentication_Cluster(in *Cluster, out *clientauthentication.Cluster, s conversion.Scope) error {
	out.Server = in.Server
	out.TLSServerName = in.TLSServerName
	out.InsecureSkipTLSVerify = in.InsecureSkipTLSVerify
	out.CertificateAuthorityData = in.CertificateAuthorityData
	out.ProxyURL = in.ProxyURL
	out.DisableCompression = in.DisableCompression
	return runtime.Convert_runtime_RawExtension_To_runtime_Object(&in.Config, &out.Config, s)
}

// Convert_clientauthentication_Cluster_To_v1beta1_Cluster converts internal
// cluster information into the wire form.
func Convert_clientauthentication_Cluster_To_v1beta1_Cluster(in *clientauthentication.Cluster, out *Cluster, s conversion.Scope) error {
	out.Server = in.Server
	out.TLSServerName = in.TLSServerName
	out.InsecureSkipTLSVerify = in.InsecureSkipTLSVerify
	out.CertificateAuthorityData = in.CertificateAuthorityData
	out.ProxyURL = in.ProxyURL
	out.DisableCompression = in.DisableCompression
	return runtime.Convert_runtime_Object_To_runtime_RawExtension(&in.Config, &out.Config, s)
}
