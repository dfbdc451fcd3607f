package v1beta1

import (
	"context"

	certificatesv1beta1 "k8s.io/api/certificates/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/scheme"
)

// CertificateSigningRequestExpansion holds the hand-written methods of
// CertificateSigningRequestInterface.
type CertificateSigningRequestExpansion interface {
	UpdateApproval(ctx context.Context, certificateSigningRequest *certificatesv1beta1.CertificateSigningRequest, opts metav1.UpdateOptions) (result *certificatesv1beta1.CertificateSigningRequest, err error)
}

// UpdateApproval writes the approval conditions of certificateSigningRequest
// through the approval subresource and returns the stored request.
func (c *certificateSigningRequests) UpdateApproval(ctx context.Context, certificateSigningRequest *certificatesv1beta1.CertificateSigningRequest, opts metav1.UpdateOptions) (*certificatesv1beta1.CertificateSigningRequest, error) {
	stored := &certificatesv1beta1.CertificateSigningRequest{}
	err := c.GetClient().Put().
		Resource("certificatesigningrequests").
		Name(certificateSigningRequest.Name).
		SubResource("approval").
		VersionedParams(&opts, scheme.ParameterCodec).
		Body(certificateSigningRequest).
		Do(ctx).
		Into(stored)
	return stored, err
}
