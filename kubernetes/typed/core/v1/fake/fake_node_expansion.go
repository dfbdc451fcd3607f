package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeclient/client-go/testing"
)

// PatchStatus records a strategic merge patch of the status of the node
// called nodeName.
func (c *fakeNodes) PatchStatus(ctx context.Context, nodeName string, data []byte) (*corev1.Node, error) {
	action := testing.NewRootPatchSubresourceAction(c.Resource(), nodeName, types.StrategicMergePatchType, data, "status")
	obj, err := c.Fake.Invokes(action, &corev1.Node{})
	if obj == nil {
		return nil, err
	}
	return obj.(*corev1.Node), err
}
