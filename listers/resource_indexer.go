package listers

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/tools/cache"
)

// ResourceIndexer is a typed, read-only view of the objects of one resource
// kept in a cache.Indexer, optionally restricted to one namespace. Generated
// listers embed it; other code should use the listers.
type ResourceIndexer[T runtime.Object] struct {
	indexer cache.Indexer
	// resource names the objects in NotFound errors.
	resource schema.GroupResource
	// namespace restricts List and Get; "" means every namespace for List
	// and a cluster-scoped key for Get.
	namespace string
}

// New returns a ResourceIndexer over every object of indexer.
func New[T runtime.Object](indexer cache.Indexer, resource schema.GroupResource) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: indexer, resource: resource}
}

// NewNamespaced returns a ResourceIndexer sharing parent's indexer that only
// sees the objects of namespace.
func NewNamespaced[T runtime.Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	parent.namespace = namespace
	return parent
}

// List returns the objects whose labels match selector. Objects of a type
// other than T, which a correctly wired informer never stores, are skipped.
func (l ResourceIndexer[T]) List(selector labels.Selector) (ret []T, err error) {
	err = cache.ListAllByNamespace(l.indexer, l.namespace, selector, func(item interface{}) {
		if obj, ok := item.(T); ok {
			ret = append(ret, obj)
		}
	})
	return ret, err
}

// Get returns the object called name, or a NotFound error for the
// indexer's resource when there is none.
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	var zero T
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	item, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, errors.NewNotFound(l.resource, name)
	}
	obj, ok := item.(T)
	if !ok {
		return zero, errors.NewInternalError(fmt.Errorf("object %q in the indexer is a %T, not a %T", key, item, zero))
	}
	return obj, nil
}
