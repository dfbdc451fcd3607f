// Package dynamiclister reads unstructured objects out of an informer's
// cache.Indexer, by label selector or by name, cluster-wide or per
// namespace, without contacting the API server.
//
// Objects returned by a lister are the cache's own: callers must not modify
// them (copy with DeepCopy first).
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package dynamiclister
