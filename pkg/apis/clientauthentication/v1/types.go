package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ExecCredential is the message exchanged with an exec credential plugin:
// the client fills Spec, the plugin answers with Status.
type ExecCredential struct {
	metav1.TypeMeta `json:""`

	// Spec describes the request.
	Spec ExecCredentialSpec `json:"spec,omitempty"`

	// Status holds the credentials returned by the plugin.
	// +optional
	Status *ExecCredentialStatus `json:"status,omitempty"`
}

// ExecCredentialSpec is the information the client passes to the plugin.
type ExecCredentialSpec struct {
	// Cluster is set only when the kubeconfig's provideClusterInfo is true.
	// +optional
	Cluster *Cluster `json:"cluster,omitempty"`

	// Interactive reports whether standard input was handed to the plugin.
	Interactive bool `json:"interactive"`
}

// ExecCredentialStatus holds the credentials a plugin returns: a token, or
// a client certificate with its key. These are secrets and should only
// travel in memory between the client and the plugin.
type ExecCredentialStatus struct {
	// ExpirationTimestamp is when the credentials stop being valid.
	// +optional
	ExpirationTimestamp *metav1.Time `json:"expirationTimestamp,omitempty"`
	// Token is a bearer token.
	// +optional
	Token string `json:"token,omitempty" datapolicy:"token"`
	// ClientCertificateData is a PEM client certificate.
	// +optional
	ClientCertificateData string `json:"clientCertificateData,omitempty"`
	// ClientKeyData is the PEM key of ClientCertificateData.
	// +optional
	ClientKeyData string `json:"clientKeyData,omitempty" datapolicy:"security-key"`
}

// Cluster tells an exec plugin how to reach the cluster it is issuing
// credentials for; the CA is always given inline.
type Cluster struct {
	// Server is the API server URL.
	Server string `json:"server"`
	// TLSServerName is the name used to verify the server certificate.
	// +optional
	TLSServerName string `json:"tls-server-name,omitempty"`
	// InsecureSkipTLSVerify disables server certificate verification.
	// +optional
	InsecureSkipTLSVerify bool `json:"insecure-skip-tls-verify,omitempty"`
	// CertificateAuthorityData is the PEM CA bundle.
	// +optional
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	// ProxyURL is the proxy used to reach the server.
	// +optional
	ProxyURL string `json:"proxy-url,omitempty"`
	// DisableCompression disables response compression.
	// +optional
	DisableCompression bool `json:"disable-compression,omitempty"`
	// Config is the per-cluster plugin configuration, taken from the
	// kubeconfig cluster extension "client.authentication.k8s.io/exec".
	// +optional
	Config runtime.RawExtension `json:"config,omitempty"`
}

// OpenAPIModelName returns the OpenAPI name of the type.
func (in ExecCredential) OpenAPIModelName() string {
	return "io.k8s.client-go.pkg.apis.clientauthentication.v1.ExecCredential"
}

// OpenAPIModelName returns the OpenAPI name of the type.
func (in ExecCredentialSpec) OpenAPIModelName() string {
	return "io.k8s.client-go.pkg.apis.clientauthentication.v1.ExecCredentialSpec"
}

// OpenAPIModelName returns the OpenAPI name of the type.
func (in ExecCredentialStatus) OpenAPIModelName() string {
	return "io.k8s.client-go.pkg.apis.clientauthentication.v1.ExecCredentialStatus"
}

// OpenAPIModelName returns the OpenAPI name of the type.
func (in Cluster) OpenAPIModelName() string {
	return "io.k8s.client-go.pkg.apis.clientauthentication.v1.Cluster"
}
