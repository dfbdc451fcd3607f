package metadata

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// Interface hands out metadata clients for resources named by group,
// version and resource.
type Interface interface {
	Resource(resource schema.GroupVersionResource) Getter
}

// ResourceInterface is what a metadata client can do with one resource in
// one scope. There is no Create or Update, which would need the whole
// object; Patch covers changes to metadata.
type ResourceInterface interface {
	Delete(ctx context.Context, name string, options metav1.DeleteOptions, subresources ...string) error
	DeleteCollection(ctx context.Context, options metav1.DeleteOptions, listOptions metav1.ListOptions) error
	Get(ctx context.Context, name string, options metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
	List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, options metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
}

// Getter is a ResourceInterface at cluster scope (all namespaces, for a
// namespaced resource) that Namespace narrows to one namespace.
type Getter interface {
	Namespace(string) ResourceInterface
	ResourceInterface
}
