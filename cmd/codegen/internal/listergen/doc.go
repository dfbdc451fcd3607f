// Package listergen generates the listers of a set of API group versions:
// one package per group version holding, for each listable resource, a
// <Kind>Lister (and <Kind>NamespaceLister for namespaced kinds) that reads
// objects from a shared informer's indexer through the generic
// listers.ResourceIndexer of the client runtime.
package listergen
