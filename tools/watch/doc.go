// Package watch builds robust helpers on top of raw watches: RetryWatcher
// resumes a watch transparently after it breaks, the Until family waits
// for conditions on watch events, and NewIndexerInformerWatcher exposes an
// informer as a watch.Interface.
//
// Layer 5 (controller machinery) of kubeclient; see the README's Layers section.
package watch
