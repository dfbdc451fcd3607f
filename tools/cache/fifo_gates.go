package cache

import (
	"k8s.io/klog/v2"

	clientfeatures "github.com/kubeclient/client-go/features"
)

// The AtomicFIFO and UnlockWhileProcessingFIFO feature gates (beta, on by
// default) choose how an informer's queue hands events to its store, as
// they do in client-go:
//
//   - AtomicFIFO on: a relist or a resync is one delta (ReplacedAll,
//     SyncAll) applied to the store at once, bookmarks reach the store
//     as Bookmark deltas, and stores report the resource version they
//     are synced to (LastStoreSyncResourceVersion). UnlockWhileProcessingFIFO
//     then says whether the queue's lock is released while the store and
//     the handlers process a batch, so that the reflector is not blocked
//     behind them.
//   - AtomicFIFO off: the queue knows the store's keys and turns a relist
//     into a Deleted delta (with a DeletedFinalStateUnknown) per stored
//     object missing from the list and one Replaced delta per listed
//     object, a resync into one Sync delta per stored object; bookmarks do
//     not reach the store, LastStoreSyncResourceVersion is empty, and the
//     lock is held while processing (UnlockWhileProcessingFIFO, which
//     needs atomic events, has no effect).
//
// The gates are read when an informer starts (or NewInformerWithOptions
// builds one); stores read AtomicFIFO each time they are asked.

// newInformerQueue returns the in-order queue an informer feeds
// knownObjects (its store) from, configured by the feature gates.
func newInformerQueue(logger *klog.Logger, transform TransformFunc, id InformerNameAndResource, metrics InformerMetricsProvider, knownObjects KeyListerGetter) *RealFIFO {
	opts := RealFIFOOptions{
		Logger:          logger,
		KeyFunction:     MetaNamespaceKeyFunc,
		Transformer:     transform,
		Identifier:      id,
		MetricsProvider: metrics,
	}
	if atomicFIFO() {
		opts.AtomicEvents = true
		opts.UnlockWhileProcessing = clientfeatures.FeatureGates().Enabled(clientfeatures.UnlockWhileProcessingFIFO)
		opts.EmitDeltaTypeBookmark = true
	} else {
		opts.KnownObjects = knownObjects
	}
	return NewRealFIFOWithOptions(opts)
}

// atomicFIFO reports whether the AtomicFIFO gate is on: informer queues
// emit atomic events, and stores report the resource version they are
// synced to.
func atomicFIFO() bool {
	return clientfeatures.FeatureGates().Enabled(clientfeatures.AtomicFIFO)
}
