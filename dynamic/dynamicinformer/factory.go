package dynamicinformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/informers"
	"github.com/kubeclient/client-go/internal/resourceinformer"
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
	return resourceinformer.NewFactory(func(gvr schema.GroupVersionResource) informers.GenericInformer {
		return NewFilteredDynamicInformer(client, gvr, namespace, defaultResync, resourceinformer.NamespaceIndexers(), tweakListOptions)
	})
}
