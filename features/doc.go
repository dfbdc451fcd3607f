// Package features holds the feature gates of this client library.
//
// Every gate has a name (Feature), a default and a maturity level
// (FeatureSpec). By default the gates are answered by an implementation that
// consults environment variables of the form KUBE_FEATURE_<Name>=true|false,
// read once on first use. Binaries that manage their own feature gates can
// register the library's gates in their registry with
// AddFeaturesToExistingFeatureGates and then hand that registry over with
// ReplaceFeatureGates.
//
// Layer 1 (configuration) of kubeclient; see the README's Layers section.
package features
