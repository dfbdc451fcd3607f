package dynamicinformer

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/dynamic/dynamiclister"
	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/internal/resourceinformer"
	"github.com/kubeclient/client-go/tools/cache"
)

// NewFilteredDynamicInformer returns an informer, not yet running, for gvr
// in namespace (all namespaces when empty), with the given resync period and
// indexers. tweakListOptions, when not nil, adjusts the options of every
// list and watch.
func NewFilteredDynamicInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) informers.GenericInformer {
	resource := client.Resource(gvr).Namespace(namespace)
	return resourceinformer.New(resourceinformer.Source[*unstructured.UnstructuredList]{
		Resource: gvr,
		List:     resource.List,
		Watch:    resource.Watch,
		Client:   client,
		Example:  &unstructured.Unstructured{},
		NewLister: func(indexer cache.Indexer, gvr schema.GroupVersionResource) cache.GenericLister {
			return dynamiclister.NewRuntimeObjectShim(dynamiclister.New(indexer, gvr))
		},
	}, resyncPeriod, indexers, tweakListOptions)
}
