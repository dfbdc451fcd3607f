package v1beta1

import (
	"context"

	policyv1beta1 "k8s.io/api/policy/v1beta1"
)

// EvictionExpansion holds the hand-written methods of EvictionInterface.
type EvictionExpansion interface {
	Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error
}

// Evict posts eviction to the eviction subresource of the pod it names, in
// the eviction's own namespace. The server refuses it (429) when a disruption
// budget would be violated.
func (c *evictions) Evict(ctx context.Context, eviction *policyv1beta1.Eviction) error {
	// Evictions are a subresource of core/v1 pods, whatever the group
	// version of this client.
	pod := c.GetClient().Post().AbsPath("/api/v1").Namespace(eviction.Namespace).Resource("pods").Name(eviction.Name)
	return pod.SubResource("eviction").Body(eviction).Do(ctx).Error()
}
