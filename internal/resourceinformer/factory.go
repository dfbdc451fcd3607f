package resourceinformer

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/tools/cache"
)

// Factory hands out one informer per resource, made on first request by
// its newInformer function, and runs them: the DynamicSharedInformerFactory
// of dynamicinformer and the SharedInformerFactory of metadatainformer.
//
// Start launches one goroutine per informer, which runs until the channel
// given to Start is closed; Shutdown waits for all of them.
type Factory struct {
	newInformer func(schema.GroupVersionResource) informers.GenericInformer

	// mu guards informers, started and shuttingDown.
	mu           sync.Mutex
	informers    map[schema.GroupVersionResource]informers.GenericInformer
	started      map[schema.GroupVersionResource]bool
	shuttingDown bool

	// running counts the informer goroutines launched by Start.
	running sync.WaitGroup
}

// NewFactory returns a Factory whose informers newInformer makes. The
// informers it makes should index by namespace (NamespaceIndexers) so that
// namespaced listers can use the index.
func NewFactory(newInformer func(schema.GroupVersionResource) informers.GenericInformer) *Factory {
	return &Factory{
		newInformer: newInformer,
		informers:   map[schema.GroupVersionResource]informers.GenericInformer{},
		started:     map[schema.GroupVersionResource]bool{},
	}
}

// NamespaceIndexers returns the indexers of a factory's informers: by
// namespace.
func NamespaceIndexers() cache.Indexers {
	return cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
}

// ForResource returns the informer of gvr, making it on first request.
func (f *Factory) ForResource(gvr schema.GroupVersionResource) informers.GenericInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	informer, ok := f.informers[gvr]
	if !ok {
		informer = f.newInformer(gvr)
		f.informers[gvr] = informer
	}
	return informer
}

// Start runs each informer requested so far and not yet running in its own
// goroutine until stopCh is closed. After Shutdown it does nothing.
func (f *Factory) Start(stopCh <-chan struct{}) {
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
		go func(run func(<-chan struct{})) {
			defer f.running.Done()
			run(stopCh)
		}(informer.Informer().Run)
	}
}

// WaitForCacheSync waits for the caches of the started informers, each
// until it has synced or stopCh is closed, and reports per resource
// whether it synced. The lock is not held while waiting.
func (f *Factory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	f.mu.Lock()
	pending := make(map[schema.GroupVersionResource]cache.InformerSynced, len(f.started))
	for gvr := range f.started {
		pending[gvr] = f.informers[gvr].Informer().HasSynced
	}
	f.mu.Unlock()

	synced := make(map[schema.GroupVersionResource]bool, len(pending))
	for gvr, hasSynced := range pending {
		synced[gvr] = cache.WaitForCacheSync(stopCh, hasSynced)
	}
	return synced
}

// Shutdown makes later Start calls do nothing and waits until the
// goroutines of the started informers have returned.
func (f *Factory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.running.Wait()
}
