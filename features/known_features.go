package features

import "k8s.io/apimachinery/pkg/util/version"

// The feature gates of this library, in alphabetical order.
const (
	// AtomicFIFO lets informers process the events of an item popped off the
	// FIFO as one atomic batch rather than as a stream. Beta since 1.36.
	AtomicFIFO Feature = "AtomicFIFO"

	// ClientsAllowCARotation lets clients pick up a rotated certificate
	// authority without dropping connections or restarting. Beta since 1.36.
	ClientsAllowCARotation Feature = "ClientsAllowCARotation"

	// ClientsAllowCBOR permits clients to use the "application/cbor" media
	// type. When disabled, CBOR preferences fall back to JSON (and
	// "application/apply-patch+cbor" to "application/apply-patch+yaml").
	// Alpha since 1.32.
	ClientsAllowCBOR Feature = "ClientsAllowCBOR"

	// ClientsAllowTLSCacheGC lets unused entries of the TLS transport cache
	// be garbage collected. Beta since 1.36.
	ClientsAllowTLSCacheGC Feature = "ClientsAllowTLSCacheGC"

	// ClientsPreferCBOR, together with ClientsAllowCBOR, makes CBOR the
	// default request encoding and "application/apply-patch+cbor" the
	// default apply patch type. Alpha since 1.32.
	ClientsPreferCBOR Feature = "ClientsPreferCBOR"

	// InOrderInformers makes informers deliver watch events in the order
	// they arrived. Beta since 1.33, GA and locked since 1.36.
	InOrderInformers Feature = "InOrderInformers"

	// InOrderInformersBatchProcess lets in-order informers handle queued
	// events in batches. Beta since 1.35.
	InOrderInformersBatchProcess Feature = "InOrderInformersBatchProcess"

	// InformerResourceVersion exposes the last synced resource version of an
	// informer. Alpha since 1.30, GA since 1.35.
	InformerResourceVersion Feature = "InformerResourceVersion"

	// UnlockWhileProcessingFIFO releases the FIFO lock while an item is
	// processed, so that producers are not blocked. Beta since 1.36.
	UnlockWhileProcessingFIFO Feature = "UnlockWhileProcessingFIFO"

	// WatchListClient lets reflectors fill their cache from a watch stream
	// of individual items instead of paginated lists. Beta since 1.30, on by
	// default since 1.35.
	WatchListClient Feature = "WatchListClient"
)

// defaultVersionedKubernetesFeatureGates lists every feature gate of this
// library with its specs in ascending version order.
var defaultVersionedKubernetesFeatureGates = map[Feature]VersionedSpecs{
	AtomicFIFO: {
		{Version: version.MustParse("1.36"), Default: true, PreRelease: Beta},
	},
	ClientsAllowCARotation: {
		{Version: version.MustParse("1.36"), Default: true, PreRelease: Beta},
	},
	ClientsAllowCBOR: {
		{Version: version.MustParse("1.32"), Default: false, PreRelease: Alpha},
	},
	ClientsAllowTLSCacheGC: {
		{Version: version.MustParse("1.36"), Default: true, PreRelease: Beta},
	},
	ClientsPreferCBOR: {
		{Version: version.MustParse("1.32"), Default: false, PreRelease: Alpha},
	},
	InOrderInformers: {
		{Version: version.MustParse("1.33"), Default: true, PreRelease: Beta},
		{Version: version.MustParse("1.36"), Default: true, PreRelease: GA, LockToDefault: true},
	},
	InOrderInformersBatchProcess: {
		{Version: version.MustParse("1.35"), Default: true, PreRelease: Beta},
	},
	InformerResourceVersion: {
		{Version: version.MustParse("1.30"), Default: false, PreRelease: Alpha},
		{Version: version.MustParse("1.35"), Default: true, PreRelease: GA},
	},
	UnlockWhileProcessingFIFO: {
		{Version: version.MustParse("1.36"), Default: true, PreRelease: Beta},
	},
	WatchListClient: {
		{Version: version.MustParse("1.30"), Default: false, PreRelease: Beta},
		{Version: version.MustParse("1.35"), Default: true, PreRelease: Beta},
	},
}
