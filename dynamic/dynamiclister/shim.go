package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeclient/client-go/internal/resourcelister"
	"github.com/kubeclient/client-go/tools/cache"
)

// NewRuntimeObjectShim adapts lister to cache.GenericLister, whose methods
// return runtime.Object instead of *unstructured.Unstructured, so a dynamic
// lister can serve where generic informers hand out listers.
func NewRuntimeObjectShim(lister Lister) cache.GenericLister {
	return resourcelister.NewGenericLister[*unstructured.Unstructured](lister,
		func(namespace string) resourcelister.ObjectLister[*unstructured.Unstructured] {
			return lister.Namespace(namespace)
		})
}
