package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// NodeExpansion holds the hand-written methods of NodeInterface.
type NodeExpansion interface {
	// PatchStatus applies a strategic merge patch to the status of the node
	// called nodeName.
	PatchStatus(ctx context.Context, nodeName string, data []byte) (*corev1.Node, error)
}

// PatchStatus applies the strategic merge patch data to the status of the
// node called nodeName and returns the patched node.
func (c *nodes) PatchStatus(ctx context.Context, nodeName string, data []byte) (*corev1.Node, error) {
	node := &corev1.Node{}
	err := c.GetClient().Patch(types.StrategicMergePatchType).
		Resource("nodes").
		Name(nodeName).
		SubResource("status").
		Body(data).
		Do(ctx).
		Into(node)
	return node, err
}
