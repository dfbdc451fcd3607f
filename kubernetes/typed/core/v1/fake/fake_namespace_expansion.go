package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/testing"
)

// Finalize records an update of the finalize subresource of namespace.
func (c *fakeNamespaces) Finalize(ctx context.Context, namespace *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error) {
	action := testing.NewRootUpdateSubresourceActionWithOptions(c.Resource(), "finalize", namespace, opts)
	obj, err := c.Fake.Invokes(action, namespace)
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Namespace), err
}
