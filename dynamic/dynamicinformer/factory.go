package dynamicinformer

import (
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/tools/cache"
)

// NewDynamicSharedInformerFactory returns a factory whose informers watch
// all namespaces and resync their handlers every defaultResync (never when
// zero).
func NewDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration) DynamicSharedInformerFactory {
	return NewFilteredDynamicSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredDynamicSharedInformerFactory returns a factory whose informers
// watch only namespace (all namespaces when empty) and pass their list and
// watch options through tweakListOptions (when not nil). Listers of these
// informers see only what the filters let through.
func NewFilteredDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) DynamicSharedInformerFactory {
	return &dynamicSharedInformerFactory{
		client:           client,
		defaultResync:    defaultResync,
		namespace:        namespace,
		tweakListOptions: tweakListOptions,
		informers:        map[schema.GroupVersionResource]informers.GenericInformer{},
		started:          map[schema.GroupVersionResource]bool{},
	}
}

type dynamicSharedInformerFactory struct {
	client           dynamic.Interface
	defaultResync    time.Duration
	namespace        string
	tweakListOptions TweakListOptionsFunc

	// mu guards informers, started and shuttingDown.
	mu           sync.Mutex
	informers    map[schema.GroupVersionResource]informers.GenericInformer
	started      map[schema.GroupVersionResource]bool
	shuttingDown bool

	// running counts the informer goroutines launched by Start.
	running sync.WaitGroup
}

func (f *dynamicSharedInformerFactory) ForResource(gvr schema.GroupVersionResource) informers.GenericInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if informer, ok := f.informers[gvr]; ok {
		return informer
	}
	indexers := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	informer := NewFilteredDynamicInformer(f.client, gvr, f.namespace, f.defaultResync, indexers, f.tweakListOptions)
	f.informers[gvr] = informer
	return informer
}

func (f *dynamicSharedInformerFactory) Start(stopCh <-chan struct{}) {
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

func (f *dynamicSharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
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

func (f *dynamicSharedInformerFactory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.running.Wait()
}
