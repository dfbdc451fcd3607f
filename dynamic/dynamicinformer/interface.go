package dynamicinformer

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/informers"
)

// DynamicSharedInformerFactory hands out shared informers of unstructured
// objects, one per resource, and runs them.
type DynamicSharedInformerFactory interface {
	// Start runs every informer requested so far and not yet running, each
	// in its own goroutine, until stopCh is closed. After Shutdown it does
	// nothing.
	Start(stopCh <-chan struct{})

	// ForResource returns the shared informer of gvr, creating it on first
	// use. Call Start afterwards to run it.
	ForResource(gvr schema.GroupVersionResource) informers.GenericInformer

	// WaitForCacheSync waits until the caches of all started informers have
	// synced, or stopCh is closed, and reports per resource whether each
	// cache synced.
	WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool

	// Shutdown stops Start from running further informers and blocks until
	// the goroutines of the started ones have returned, which happens once
	// the channels they were started with are closed. It may be called any
	// number of times, from any goroutine.
	Shutdown()
}

// TweakListOptionsFunc adjusts the options of every list and watch call an
// informer makes, for example to add a label or field selector.
type TweakListOptionsFunc func(*metav1.ListOptions)
