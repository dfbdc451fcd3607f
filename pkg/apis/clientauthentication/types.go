package clientauthentication

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
	metav1.TypeMeta

	// Spec describes the request: whether the plugin may interact with the
	// user and, when asked for, the cluster being authenticated to.
	Spec ExecCredentialSpec

	// Status holds the credentials returned by the plugin. When it is nil
	// the plugin produced no credentials.
	// +optional
	Status *ExecCredentialStatus
}

// ExecCredentialSpec is the information the client passes to the plugin.
type ExecCredentialSpec struct {
	// Interactive reports whether standard input was handed to the plugin.
	// +optional
	Interactive bool

	// Cluster is set only when the kubeconfig's provideClusterInfo is true.
	// +optional
	Cluster *Cluster
}

// ExecCredentialStatus holds the credentials a plugin returns. Either Token
// or both ClientCertificateData and ClientKeyData are set.
type ExecCredentialStatus struct {
	// ExpirationTimestamp is when the credentials stop being valid; without
	// it they are cached until the server rejects them.
	// +optional
	ExpirationTimestamp *metav1.Time
	// Token is a bearer token.
	// +optional
	Token string `datapolicy:"token"`
	// ClientCertificateData is a PEM client certificate.
	// +optional
	ClientCertificateData string
	// ClientKeyData is the PEM key of ClientCertificateData.
	// +optional
	ClientKeyData string `datapolicy:"secret-key"`
}

// Cluster tells an exec plugin how to reach the cluster it is issuing
// credentials for. It mirrors the kubeconfig cluster, except that the CA is
// always given inline.
type Cluster struct {
	// Server is the API server URL.
	Server string
	// TLSServerName is the name used to verify the server certificate.
	// +optional
	TLSServerName string
	// InsecureSkipTLSVerify disables server certificate verification.
	// +optional
	InsecureSkipTLSVerify bool
	// CertificateAuthorityData is the PEM CA bundle.
	// +optional
	CertificateAuthorityData []byte
	// ProxyURL is the proxy used to reach the server.
	// +optional
	ProxyURL string
	// DisableCompression disables response compression.
	// +optional
	DisableCompression bool
	// Config is the per-cluster plugin configuration, taken from the
	// kubeconfig cluster extension "client.authentication.k8s.io/exec".
	// +optional
	Config runtime.Object
}
