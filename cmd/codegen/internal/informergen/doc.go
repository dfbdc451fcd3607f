// Package informergen generates the shared informers of a set of API group
// versions: the SharedInformerFactory package with its GenericInformer
// lookup, the internalinterfaces package the generated packages share, one
// package per group with an accessor per version, and one package per group
// version with a typed informer per watchable resource.
package informergen
