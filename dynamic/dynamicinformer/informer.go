package dynamicinformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/dynamic/dynamiclister"
	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/tools/cache"
)

// NewFilteredDynamicInformer returns an informer, not yet running, for gvr
// in namespace (all namespaces when empty), with the given resync period and
// indexers. tweakListOptions, when not nil, adjusts the options of every
// list and watch.
func NewFilteredDynamicInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers cache.Indexers, tweakListOptions TweakListOptionsFunc) informers.GenericInformer {
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
		&unstructured.Unstructured{},
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
	return dynamiclister.NewRuntimeObjectShim(dynamiclister.New(i.informer.GetIndexer(), i.gvr))
}
