// Package resourceinformer builds the shared informers of dynamicinformer
// and metadatainformer and the factory both hand them out from. The two
// packages differ only in the client that lists and watches, the type of
// object cached and the lister over the cache; those come in as a Source.
// It sits above tools/cache and informers.
package resourceinformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/tools/cache"
)

// Source describes where the informer of one resource gets its objects and
// how its cache is read.
type Source[L runtime.Object] struct {
	// Resource is the resource listed and watched; it names the informer.
	Resource schema.GroupVersionResource
	// List and Watch reach the resource in the informer's namespace.
	List  func(context.Context, metav1.ListOptions) (L, error)
	Watch func(context.Context, metav1.ListOptions) (watch.Interface, error)
	// Client is the client behind List and Watch, asked whether it
	// supports watch-list (see cache.ToListWatcherWithWatchListSemantics).
	Client any
	// Example is an empty object of the cached type.
	Example runtime.Object
	// NewLister returns the lister over an informer's indexer.
	NewLister func(cache.Indexer, schema.GroupVersionResource) cache.GenericLister
}

// New returns an informer, not yet running, over source with the given
// resync period and indexers. tweak, when not nil, adjusts the options of
// every list and watch.
func New[L runtime.Object](source Source[L], resyncPeriod time.Duration, indexers cache.Indexers, tweak func(*metav1.ListOptions)) informers.GenericInformer {
	adjust := func(opts *metav1.ListOptions) {
		if tweak != nil {
			tweak(opts)
		}
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			adjust(&opts)
			return source.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			adjust(&opts)
			return source.Watch(ctx, opts)
		},
	}
	shared := cache.NewSharedIndexInformerWithOptions(
		cache.ToListWatcherWithWatchListSemantics(lw, source.Client),
		source.Example,
		cache.SharedIndexInformerOptions{
			ResyncPeriod:      resyncPeriod,
			Indexers:          indexers,
			ObjectDescription: source.Resource.String(),
		},
	)
	return &informer{shared: shared, resource: source.Resource, newLister: source.NewLister}
}

// informer pairs a shared informer with the lister over its cache.
type informer struct {
	shared    cache.SharedIndexInformer
	resource  schema.GroupVersionResource
	newLister func(cache.Indexer, schema.GroupVersionResource) cache.GenericLister
}

func (i *informer) Informer() cache.SharedIndexInformer {
	return i.shared
}

func (i *informer) Lister() cache.GenericLister {
	return i.newLister(i.shared.GetIndexer(), i.resource)
}
