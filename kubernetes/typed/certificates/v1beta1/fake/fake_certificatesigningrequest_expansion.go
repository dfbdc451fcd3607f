package fake

import (
	"context"

	certificatesv1beta1 "k8s.io/api/certificates/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/testing"
)

// UpdateApproval records an update of the approval subresource of csr.
func (c *fakeCertificateSigningRequests) UpdateApproval(ctx context.Context, csr *certificatesv1beta1.CertificateSigningRequest, opts metav1.UpdateOptions) (*certificatesv1beta1.CertificateSigningRequest, error) {
	action := testing.NewRootUpdateSubresourceActionWithOptions(c.Resource(), "approval", csr, opts)
	obj, err := c.Fake.Invokes(action, csr)
	if obj == nil {
		return nil, err
	}
	return obj.(*certificatesv1beta1.CertificateSigningRequest), err
}
