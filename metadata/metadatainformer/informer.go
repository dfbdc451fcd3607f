package metadatainformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/internal/resourceinformer"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/metadata/metadatalister"
	"github.com/kubeclient/client-go/tools/cache"
)

// NewFilteredMetadataInformer returns an informer, not yet running, caching
// the metadata of gvr in namespace (all namespaces when empty), with the
// given resync period and indexers. tweakListOptions, when not nil, adjusts
// the options of every list and watch.
func NewFilteredMetadataInformer(client metadata.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) informers.GenericInformer {
	resource := client.Resource(gvr).Namespace(namespace)
	return resourceinformer.New(resourceinformer.Source[*metav1.PartialObjectMetadataList]{
		Resource: gvr,
		List:     resource.List,
		Watch:    resource.Watch,
		Client:   client,
		Example:  &metav1.PartialObjectMetadata{},
		NewLister: func(indexer cache.Indexer, gvr schema.GroupVersionResource) cache.GenericLister {
			return metadatalister.NewRuntimeObjectShim(metadatalister.New(indexer, gvr))
		},
	}, resyncPeriod, indexers, tweakListOptions)
}
