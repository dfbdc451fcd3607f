package metadatainformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/internal/resourceinformer"
	"github.com/kubeclient/client-go/metadata"
	"github.com/kubeclient/client-go/tools/cache"
)

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
	return newFactory(&metadataSharedInformerFactory{client: client, defaultResync: defaultResync, namespace: namespace, tweakListOptions: tweakListOptions})
}

// NewSharedInformerFactoryWithOptions returns a factory for all namespaces
// configured by options, applied in order.
func NewSharedInformerFactoryWithOptions(client metadata.Interface, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	f := &metadataSharedInformerFactory{client: client, defaultResync: defaultResync, namespace: metav1.NamespaceAll}
	for _, option := range options {
		f = option(f)
	}
	return newFactory(f)
}

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

// metadataSharedInformerFactory implements SharedInformerFactory: the
// settings its informers are made with, over the shared factory.
type metadataSharedInformerFactory struct {
	*resourceinformer.Factory

	client           metadata.Interface
	defaultResync    time.Duration
	namespace        string
	tweakListOptions TweakListOptionsFunc
	transform        cache.TransformFunc
}

// newFactory sets up the shared factory of f once its settings are final.
func newFactory(f *metadataSharedInformerFactory) *metadataSharedInformerFactory {
	f.Factory = resourceinformer.NewFactory(f.newInformer)
	return f
}

// newInformer makes the informer of gvr with the factory's settings.
func (f *metadataSharedInformerFactory) newInformer(gvr schema.GroupVersionResource) informers.GenericInformer {
	informer := NewFilteredMetadataInformer(f.client, gvr, f.namespace, f.defaultResync, resourceinformer.NamespaceIndexers(), f.tweakListOptions)
	if f.transform != nil {
		// A new informer has not started, so setting the transform
		// cannot fail.
		_ = informer.Informer().SetTransform(f.transform)
	}
	return informer
}
