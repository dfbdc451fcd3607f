package fake

import (
	"context"

	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/testing"
)

// Rollback records a create of the rollback subresource of the deployment
// rollback names.
func (c *fakeDeployments) Rollback(ctx context.Context, rollback *extensionsv1beta1.DeploymentRollback, opts metav1.CreateOptions) error {
	action := testing.NewCreateSubresourceActionWithOptions(c.Resource(), rollback.Name, "rollback", c.Namespace(), rollback, opts)
	_, err := c.Fake.Invokes(action, rollback)
	return err
}
