package features

import (
	"context"
	"sync/atomic"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/version"
)

// prerelease is the maturity level of a feature.
type prerelease string

// Maturity levels a FeatureSpec can declare.
const (
	Alpha = prerelease("ALPHA")
	Beta  = prerelease("BETA")
	GA    = prerelease("")

	// Deprecated marks a feature that is going away.
	Deprecated = prerelease("DEPRECATED")
)

// Feature is the name of a feature gate.
type Feature string

// FeatureSpec describes one feature gate at one version.
type FeatureSpec struct {
	// Default is whether the feature is on when nobody configured it.
	Default bool
	// LockToDefault, when true, forbids changing the feature away from Default.
	LockToDefault bool
	// PreRelease is the maturity level of the feature.
	PreRelease prerelease
	// Version is the first component version this spec applies to. When a
	// feature has several specs, the one with the highest Version not above
	// the component's effective version wins.
	Version *version.Version
}

// VersionedSpecs lists the specs of one feature, ordered by ascending Version.
type VersionedSpecs []FeatureSpec

// Gates reports whether features are enabled.
type Gates interface {
	// Enabled reports whether key is enabled.
	Enabled(key Feature) bool
}

// Registry is an external feature gate registry that can accept the gates
// of this library.
type Registry interface {
	// Add registers the given feature gates.
	Add(map[Feature]FeatureSpec) error
}

// VersionedRegistry is an external feature gate registry that understands
// versioned specs.
type VersionedRegistry interface {
	// AddVersioned registers the given versioned feature gates.
	AddVersioned(in map[Feature]VersionedSpecs) error
}

// gatesHolder boxes a Gates so that implementations of different dynamic
// types can be swapped atomically.
type gatesHolder struct {
	gates Gates
}

// current holds the Gates answered by FeatureGates.
var current atomic.Pointer[gatesHolder]

func init() {
	current.Store(&gatesHolder{gates: newEnvVarFeatureGates(unversionedFeatureGates(defaultVersionedKubernetesFeatureGates))})
}

// FeatureGates returns the feature gates this library consults.
//
// Unless ReplaceFeatureGates was called, the returned implementation knows
// the library's own gates with their defaults, and lets an environment
// variable KUBE_FEATURE_<Name> set to a boolean (as strconv.ParseBool reads
// it) override the default of the feature <Name>. The environment is read
// once, on the first query.
func FeatureGates() Gates {
	return current.Load().gates
}

// AddFeaturesToExistingFeatureGates registers the library's feature gates,
// each with its most recent spec and no version, in registry. It is usually
// followed by ReplaceFeatureGates(registry).
func AddFeaturesToExistingFeatureGates(registry Registry) error {
	return registry.Add(unversionedFeatureGates(defaultVersionedKubernetesFeatureGates))
}

// AddVersionedFeaturesToExistingFeatureGates registers the library's
// feature gates with all their versioned specs in registry. It is usually
// followed by ReplaceFeatureGates(registry).
func AddVersionedFeaturesToExistingFeatureGates(registry VersionedRegistry) error {
	return registry.AddVersioned(defaultVersionedKubernetesFeatureGates)
}

// ReplaceFeatureGates makes newFeatureGates the implementation consulted by
// the library from now on.
//
// Call it during start-up, before any client is built. If the default
// implementation has already answered a query, an error is reported through
// utilruntime.HandleError because earlier decisions may have used other
// values.
func ReplaceFeatureGates(newFeatureGates Gates) {
	if replaceFeatureGates(newFeatureGates) {
		utilruntime.HandleErrorWithContext(context.TODO(), nil, "client-go feature gates are being replaced after the default implementation was already consulted; check the initialization order")
	}
}

// replaceFeatureGates stores newFeatureGates and reports whether the
// replaced default implementation had already been consulted.
func replaceFeatureGates(newFeatureGates Gates) (alreadyUsed bool) {
	if envGates, ok := FeatureGates().(*envVarFeatureGates); ok {
		alreadyUsed = envGates.hasAlreadyReadEnvVar()
	}
	current.Store(&gatesHolder{gates: newFeatureGates})
	return alreadyUsed
}

// unversionedFeatureGates reduces versioned specs to the latest spec of
// each feature, with its Version cleared.
func unversionedFeatureGates(in map[Feature]VersionedSpecs) map[Feature]FeatureSpec {
	out := make(map[Feature]FeatureSpec, len(in))
	for name, specs := range in {
		if len(specs) == 0 {
			continue
		}
		latest := specs[len(specs)-1]
		latest.Version = nil
		out[name] = latest
	}
	return out
}
