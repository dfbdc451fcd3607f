// Package synctrack lets a consumer of an informer tell when it has finished
// processing everything in the informer's initial list, that is, when it is
// "synced" itself and not just the informer feeding it.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package synctrack
