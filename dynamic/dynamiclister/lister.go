package dynamiclister

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/tools/cache"
)

// New returns a Lister over indexer, which holds the objects of gvr keyed
// by cache.MetaNamespaceKeyFunc and indexed by namespace (as the indexer of
// a dynamic informer is). gvr names the resource in NotFound errors.
func New(indexer cache.Indexer, gvr schema.GroupVersionResource) Lister {
	return &lister{indexer: indexer, gvr: gvr}
}

type lister struct {
	indexer cache.Indexer
	gvr     schema.GroupVersionResource
}

func (l *lister) List(selector labels.Selector) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	err := cache.ListAll(l.indexer, selector, collectInto(&out))
	return out, err
}

func (l *lister) Get(name string) (*unstructured.Unstructured, error) {
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

func (l *namespaceLister) List(selector labels.Selector) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	err := cache.ListAllByNamespace(l.indexer, l.namespace, selector, collectInto(&out))
	return out, err
}

func (l *namespaceLister) Get(name string) (*unstructured.Unstructured, error) {
	return getByKey(l.indexer, l.gvr, l.namespace+"/"+name, name)
}

// collectInto returns a cache.AppendFunc that appends to *out the cached
// objects that are unstructured, skipping anything else an indexer shared
// with other code may hold.
func collectInto(out *[]*unstructured.Unstructured) cache.AppendFunc {
	return func(obj interface{}) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			*out = append(*out, u)
		}
	}
}

// getByKey looks key up in indexer and reports a missing object as a
// NotFound error for name of gvr, as the API server would.
func getByKey(indexer cache.Indexer, gvr schema.GroupVersionResource, key, name string) (*unstructured.Unstructured, error) {
	obj, exists, err := indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, errors.NewNotFound(gvr.GroupResource(), name)
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("cached object %q of %s is a %T, not *unstructured.Unstructured", key, gvr, obj)
	}
	return u, nil
}
