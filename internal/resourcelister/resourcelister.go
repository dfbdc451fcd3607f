// Package resourcelister adapts the typed listers of dynamic and metadata
// (over listers.ResourceIndexer) to cache.GenericLister, whose methods
// return runtime.Object, so that their informers can hand them out. It sits
// above tools/cache and listers.
package resourcelister

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/tools/cache"
)

// ObjectLister reads cached objects of type T, in every namespace or in
// one: what both the Lister and the NamespaceLister of dynamiclister and
// metadatalister offer.
type ObjectLister[T runtime.Object] interface {
	List(selector labels.Selector) ([]T, error)
	Get(name string) (T, error)
}

// NewGenericLister returns all as a cache.GenericLister; inNamespace gives
// the lister of one namespace for ByNamespace.
func NewGenericLister[T runtime.Object](all ObjectLister[T], inNamespace func(namespace string) ObjectLister[T]) cache.GenericLister {
	return genericLister[T]{genericNamespaceLister[T]{all}, inNamespace}
}

type genericLister[T runtime.Object] struct {
	genericNamespaceLister[T]
	inNamespace func(string) ObjectLister[T]
}

func (l genericLister[T]) ByNamespace(namespace string) cache.GenericNamespaceLister {
	return genericNamespaceLister[T]{l.inNamespace(namespace)}
}

// genericNamespaceLister presents an ObjectLister as a
// cache.GenericNamespaceLister.
type genericNamespaceLister[T runtime.Object] struct {
	typed ObjectLister[T]
}

func (l genericNamespaceLister[T]) List(selector labels.Selector) ([]runtime.Object, error) {
	typed, err := l.typed.List(selector)
	if err != nil {
		return nil, err
	}
	objects := make([]runtime.Object, len(typed))
	for i, obj := range typed {
		objects[i] = obj
	}
	return objects, nil
}

func (l genericNamespaceLister[T]) Get(name string) (runtime.Object, error) {
	return l.typed.Get(name)
}
