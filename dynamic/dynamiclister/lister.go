package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/listers"
	"github.com/kubeclient/client-go/tools/cache"
)

// New returns a Lister over indexer, which holds the objects of gvr keyed
// by cache.MetaNamespaceKeyFunc and indexed by namespace (as the indexer of
// a dynamic informer is). gvr names the resource in NotFound errors.
// Objects of other types in the indexer are skipped by List and are an
// error for Get.
func New(indexer cache.Indexer, gvr schema.GroupVersionResource) Lister {
	return lister{listers.New[*unstructured.Unstructured](indexer, gvr.GroupResource())}
}

// lister is the cluster-wide view; listers.ResourceIndexer does the work.
type lister struct {
	listers.ResourceIndexer[*unstructured.Unstructured]
}

func (l lister) Namespace(namespace string) NamespaceLister {
	return listers.NewNamespaced(l.ResourceIndexer, namespace)
}
