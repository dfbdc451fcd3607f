package metadatalister

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/tools/cache"
)

// New returns a Lister over indexer, which holds PartialObjectMetadata of
// gvr keyed by cache.MetaNamespaceKeyFunc and indexed by namespace, as the
// indexer of a metadata informer does. gvr names the resource in NotFound
// errors.
func New(indexer cache.Indexer, gvr schema.GroupVersionResource) Lister {
	return &lister{indexer: indexer, gvr: gvr}
}

type lister struct {
	indexer cache.Indexer
	gvr     schema.GroupVersionResource
}

func (l *lister) List(selector labels.Selector) ([]*metav1.PartialObjectMetadata, error) {
	var out []*metav1.PartialObjectMetadata
	err := cache.ListAll(l.indexer, selector, collectInto(&out))
	return out, err
}

func (l *lister) Get(name string) (*metav1.PartialObjectMetadata, error) {
	return getByKey(l.indexer, l.gvr, name, name)
}

func (l *lister) Namespace(namespace string) NamespaceLister {
	return &namespaceLister{indexer: l.indexer, gvr: l.gvr, namespace: namespace}
}

type namespaceLister struct {
	indexer   cache.Indexer
	gvr       schema.GroupVersionResource
	namespace string
}

func (l *namespaceLister) List(selector labels.Selector) ([]*metav1.PartialObjectMetadata, error) {
	var out []*metav1.PartialObjectMetadata
	err := cache.ListAllByNamespace(l.indexer, l.namespace, selector, collectInto(&out))
	return out, err
}

func (l *namespaceLister) Get(name string) (*metav1.PartialObjectMetadata, error) {
	return getByKey(l.indexer, l.gvr, l.namespace+"/"+name, name)
}

// collectInto returns a cache.AppendFunc that appends the cached
// PartialObjectMetadata to *out, skipping objects of other types.
func collectInto(out *[]*metav1.PartialObjectMetadata) cache.AppendFunc {
	return func(obj interface{}) {
		if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
			*out = append(*out, m)
		}
	}
}

// getByKey looks key up in indexer and reports a missing object as a
// NotFound error for name of gvr.
func getByKey(indexer cache.Indexer, gvr schema.GroupVersionResource, key, name string) (*metav1.PartialObjectMetadata, error) {
	obj, exists, err := indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, errors.NewNotFound(gvr.GroupResource(), name)
	}
	m, ok := obj.(*metav1.PartialObjectMetadata)
	if !ok {
		return nil, fmt.Errorf("cached object %q of %s is a %T, not *metav1.PartialObjectMetadata", key, gvr, obj)
	}
	return m, nil
}
