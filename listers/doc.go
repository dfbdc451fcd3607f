// Package listers holds the generated listers of the Kubernetes APIs, one
// package per group version, and the generic ResourceIndexer they are built
// on. A lister answers reads from the local cache of a shared informer
// instead of the API server.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package listers
