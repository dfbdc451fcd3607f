package scale

import (
	"context"

	autoscalingapi "k8s.io/api/autoscaling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// ScalesGetter hands out a ScaleInterface per namespace.
type ScalesGetter interface {
	// Scales returns a ScaleInterface for namespace; use "" for
	// cluster-scoped resources.
	Scales(namespace string) ScaleInterface
}

// ScaleInterface reads and writes the scale subresource of resources in one
// namespace.
type ScaleInterface interface {
	// Get returns the scale of the named object of resource.
	Get(ctx context.Context, resource schema.GroupResource, name string, opts metav1.GetOptions) (*autoscalingapi.Scale, error)

	// Update writes scale to the scale subresource of the object scale names.
	Update(ctx context.Context, resource schema.GroupResource, scale *autoscalingapi.Scale, opts metav1.UpdateOptions) (*autoscalingapi.Scale, error)

	// Patch applies a patch of type pt to the scale of the named object.
	Patch(ctx context.Context, gvr schema.GroupVersionResource, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions) (*autoscalingapi.Scale, error)
}
