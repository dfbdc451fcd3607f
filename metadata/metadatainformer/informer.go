package metadatainformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/informers"
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
	tweak := func(opts *metav1.ListOptions) {
		if tweakListOptions != nil {
			tweakListOptions(opts)
		}
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			tweak(&opts)
			return resource.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			tweak(&opts)
			return resource.Watch(ctx, opts)
		},
	}
	informer := cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(lw, client),
		&metav1.PartialObjectMetadata{},
		cache.SharedIndexInformerOptions{
			ResyncPeriod:      resyncPeriod,
			Indexers:          indexers,
			ObjectDescription: gvr.String(),
		},
	)
	return &genericInformer{informer: informer, gvr: gvr}
}

// genericInformer pairs a shared informer with a lister over its cache.
type genericInformer struct {
	informer cache.SharedIndexInformer
	gvr      schema.GroupVersionResource
}

func (i *genericInformer) Informer() cache.SharedIndexInformer {
	return i.informer
}

func (i *genericInformer) Lister() cache.GenericLister {
	return metadatalister.NewRuntimeObjectShim(metadatalister.New(i.informer.GetIndexer(), i.gvr))
}
