// Package dynamicinformer provides shared informers for any resource,
// caching unstructured objects listed and watched through a
// dynamic.Interface.
//
// A DynamicSharedInformerFactory hands out one informer per
// GroupVersionResource, starts them together and waits for their caches;
// NewFilteredDynamicInformer builds a single informer outside a factory.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package dynamicinformer
