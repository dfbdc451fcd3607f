package metadatalister

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeclient/client-go/internal/resourcelister"
	"github.com/kubeclient/client-go/tools/cache"
)

// NewRuntimeObjectShim adapts lister to cache.GenericLister, whose methods
// return runtime.Object instead of *metav1.PartialObjectMetadata, so a
// metadata lister can serve where generic informers hand out listers.
func NewRuntimeObjectShim(lister Lister) cache.GenericLister {
	return resourcelister.NewGenericLister[*metav1.PartialObjectMetadata](lister,
		func(namespace string) resourcelister.ObjectLister[*metav1.PartialObjectMetadata] {
			return lister.Namespace(namespace)
		})
}
