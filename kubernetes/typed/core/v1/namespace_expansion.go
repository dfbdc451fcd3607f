package v1

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/kubernetes/scheme"
)

// NamespaceExpansion holds the hand-written methods of NamespaceInterface.
type NamespaceExpansion interface {
	// Finalize writes the finalizers of a namespace being deleted.
	Finalize(ctx context.Context, item *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error)
}

// Finalize puts item to the finalize subresource, which replaces the
// namespace's spec.finalizers, and returns the namespace the server stored.
func (c *namespaces) Finalize(ctx context.Context, item *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error) {
	stored := &corev1.Namespace{}
	err := c.GetClient().Put().
		Resource("namespaces").
		Name(item.Name).
		SubResource("finalize").
		VersionedParams(&opts, scheme.ParameterCodec).
		Body(item).
		Do(ctx).
		Into(stored)
	return stored, err
}
