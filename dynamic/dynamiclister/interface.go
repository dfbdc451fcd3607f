package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
)

// Lister reads the cached objects of one resource.
type Lister interface {
	// List returns the cached objects, in every namespace, whose labels
	// match selector.
	List(selector labels.Selector) (ret []*unstructured.Unstructured, err error)
	// Get returns the cached object whose key is name: the bare name for a
	// cluster-scoped resource.
	Get(name string) (*unstructured.Unstructured, error)
	// Namespace returns a lister restricted to namespace.
	Namespace(namespace string) NamespaceLister
}

// NamespaceLister reads the cached objects of one resource in one
// namespace.
type NamespaceLister interface {
	// List returns the cached objects of the namespace whose labels match
	// selector.
	List(selector labels.Selector) (ret []*unstructured.Unstructured, err error)
	// Get returns the cached object name of the namespace.
	Get(name string) (*unstructured.Unstructured, error)
}
