package metadatainformer

import (
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/tools/cache"
)

// SharedInformerOption configures a factory made by
// NewSharedInformerFactoryWithOptions.
type SharedInformerOption func(*metadataSharedInformerFactory) *metadataSharedInformerFactory

// WithTransform makes every informer of the factory pass the objects it
// receives through transform before caching them (see
// cache.SharedInformer.SetTransform).
func WithTransform(transform cache.TransformFunc) SharedInformerOption {
	return func(f *metadataSharedInformerFactory) *metadataSharedInformerFactory {
		f.transform = transform
		return f
	}
}

// NewSharedInformerFactory returns a factory whose informers watch all
// namespaces and resync their handlers every defaultResync (never when
// zero).
func NewSharedInformerFactory(client metadata.Interface, defaultResync time.Duration) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync)
}

// NewFilteredSharedInformerFactory returns a factory whose informers watch
// only namespace (all namespaces when empty) and pass their list and watch
// options through tweakListOptions (when not nil).
func NewFilteredSharedInformerFactory(client metadata.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) SharedInformerFactory {
	f := newFactory(client, defaultResync)
	f.namespace = namespace
	f.tweakListOptions = tweakListOptions
	return f
}

// NewSharedInformerFactoryWithOptions returns a factory for all namespaces
// configured by options, applied in order.
func NewSharedInformerFactoryWithOptions(client metadata.Interface, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	f := newFactory(client, defaultResync)
	for _, option := range options {
		f = option(f)
	}
	return f
}

func newFactory(client metadata.Interface, defaultResync time.Duration) *metadataSharedInformerFactory {
	return &metadataSharedInformerFactory{
		client:        client,
		defaultResync: defaultResync,
		namespace:     metav1.NamespaceAll,
		informers:     map[schema.GroupVersionResource]informers.GenericInformer{},
		started:       map[schema.GroupVersionResource]bool{},
	}
}

// metadataSharedInformerFactory implements SharedInformerFactory.
type metadataSharedInformerFactory struct {
	client           metadata.Interface
	defaultResync    time.Duration
	namespace        string
	tweakListOptions TweakListOptionsFunc
	transform        cache.TransformFunc

	// mu guards informers, started and shuttingDown.
	mu           sync.Mutex
	informers    map[schema.GroupVersionResource]informers.GenericInformer
	started      map[schema.GroupVersionResource]bool
	shuttingDown bool

	// running counts the informer goroutines launched by Start.
	running sync.WaitGroup
}

func (f *metadataSharedInformerFactory) ForResource(gvr schema.GroupVersionResource) informers.GenericInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if informer, ok := f.informers[gvr]; ok {
		return informer
	}
	indexers := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	informer := NewFilteredMetadataInformer(f.client, gvr, f.namespace, f.defaultResync, indexers, f.tweakListOptions)
	if f.transform != nil {
		// A new informer has not started, so setting the transform
		// cannot fail.
		_ = informer.Informer().SetTransform(f.transform)
	}
	f.informers[gvr] = informer
	return informer
}

func (f *metadataSharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	for gvr, informer := range f.informers {
		if f.started[gvr] {
			continue
		}
		f.started[gvr] = true
		f.running.Add(1)
		run := informer.Informer().Run
		go func() {
			defer f.running.Done()
			run(stopCh)
		}()
	}
}

func (f *metadataSharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	f.mu.Lock()
	synced := map[schema.GroupVersionResource]cache.InformerSynced{}
	for gvr, informer := range f.informers {
		if f.started[gvr] {
			synced[gvr] = informer.Informer().HasSynced
		}
	}
	f.mu.Unlock()

	result := make(map[schema.GroupVersionResource]bool, len(synced))
	for gvr, hasSynced := range synced {
		result[gvr] = cache.WaitForCacheSync(stopCh, hasSynced)
	}
	return result
}

func (f *metadataSharedInformerFactory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.running.Wait()
}
