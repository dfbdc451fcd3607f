package metadatalister

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// Lister reads the cached metadata of one resource.
type Lister interface {
	// List returns the cached objects, in every namespace, whose labels
	// match selector.
	List(selector labels.Selector) (ret []*metav1.PartialObjectMetadata, err error)
	// Get returns the cached object whose key is name: the bare name for a
	// cluster-scoped resource.
	Get(name string) (*metav1.PartialObjectMetadata, error)
	// Namespace returns a lister restricted to namespace.
	Namespace(namespace string) NamespaceLister
}

// NamespaceLister reads the cached metadata of one resource in one
// namespace.
type NamespaceLister interface {
	// List returns the cached objects of the namespace whose labels match
	// selector.
	List(selector labels.Selector) (ret []*metav1.PartialObjectMetadata, err error)
	// Get returns the cached object name of the namespace.
	Get(name string) (*metav1.PartialObjectMetadata, error)
}
