package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"

	"github.com/kubeclient/client-go/testing"
)

// Evict records a create of the eviction subresource of the pod eviction
// names; the tracker deletes the pod.
func (c *fakeEvictions) Evict(ctx context.Context, eviction *policyv1.Eviction) error {
	action := testing.NewCreateSubresourceAction(corev1.SchemeGroupVersion.WithResource("pods"), eviction.Name, "eviction", c.Namespace(), eviction)
	_, err := c.Fake.Invokes(action, eviction)
	return err
}
