package v1beta1

import (
	"context"

	extensionsv1beta1 "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/scheme"
)

// DeploymentExpansion holds the hand-written methods of DeploymentInterface.
type DeploymentExpansion interface {
	Rollback(context.Context, *extensionsv1beta1.DeploymentRollback, metav1.CreateOptions) error
}

// Rollback posts deploymentRollback to the rollback subresource of the
// deployment it names.
func (c *deployments) Rollback(ctx context.Context, deploymentRollback *extensionsv1beta1.DeploymentRollback, opts metav1.CreateOptions) error {
	return c.GetClient().Post().
		Namespace(c.GetNamespace()).
		Resource("deployments").
		Name(deploymentRollback.Name).
		SubResource("rollback").
		VersionedParams(&opts, scheme.ParameterCodec).
		Body(deploymentRollback).
		Do(ctx).
		Error()
}
