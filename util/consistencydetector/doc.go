// Package consistencydetector double-checks, in test and CI builds, that
// data an informer received through a watch-list stream matches what a
// plain list at the same resource version returns. It is switched on with
// the KUBE_WATCHLIST_INCONSISTENCY_DETECTOR environment variable.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package consistencydetector
