package metadatalister

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeclient/client-go/tools/cache"
)

// NewRuntimeObjectShim adapts lister to cache.GenericLister, whose methods
// return runtime.Object instead of *metav1.PartialObjectMetadata, so a
// metadata lister can serve where generic informers hand out listers.
func NewRuntimeObjectShim(lister Lister) cache.GenericLister {
	return &runtimeObjectShim{lister: lister}
}

type runtimeObjectShim struct {
	lister Lister
}

func (s *runtimeObjectShim) List(selector labels.Selector) ([]runtime.Object, error) {
	objs, err := s.lister.List(selector)
	if err != nil {
		return nil, err
	}
	out := make([]runtime.Object, len(objs))
	for i, obj := range objs {
		out[i] = obj
	}
	return out, nil
}

func (s *runtimeObjectShim) Get(name string) (runtime.Object, error) {
	return s.lister.Get(name)
}

func (s *runtimeObjectShim) ByNamespace(namespace string) cache.GenericNamespaceLister {
	return &namespaceShim{lister: s.lister.Namespace(namespace)}
}

type namespaceShim struct {
	lister NamespaceLister
}

func (s *namespaceShim) List(selector labels.Selector) ([]runtime.Object, error) {
	objs, err := s.lister.List(selector)
	if err != nil {
		return nil, err
	}
	out := make([]runtime.Object, len(objs))
	for i, obj := range objs {
		out[i] = obj
	}
	return out, nil
}

func (s *namespaceShim) Get(name string) (runtime.Object, error) {
	return s.lister.Get(name)
}
