package features

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// envVarPrefix is prepended to a feature name to form the environment
// variable that overrides it.
const envVarPrefix = "KUBE_FEATURE_"

// envVarFeatureGates is the default Gates implementation. A feature's state
// is, in order of precedence: a value given to Set or SetForTesting, a valid
// KUBE_FEATURE_<Name> environment variable, the feature's default.
type envVarFeatureGates struct {
	// known holds the registered features; it is never modified after
	// construction.
	known map[Feature]FeatureSpec

	// readOnce guards the single read of the environment into fromEnv.
	readOnce sync.Once
	// fromEnv holds the map[Feature]bool parsed from the environment; it is
	// empty until readOnce has run.
	fromEnv atomic.Pointer[map[Feature]bool]
	// envRead is set once the environment has been read.
	envRead atomic.Bool

	// setMu guards fromSet.
	setMu sync.RWMutex
	// fromSet holds values given explicitly through Set or SetForTesting.
	fromSet map[Feature]bool
}

var _ Gates = &envVarFeatureGates{}

// newEnvVarFeatureGates returns gates that know the given features.
func newEnvVarFeatureGates(features map[Feature]FeatureSpec) *envVarFeatureGates {
	known := make(map[Feature]FeatureSpec, len(features))
	for name, spec := range features {
		known[name] = spec
	}
	g := &envVarFeatureGates{known: known, fromSet: map[Feature]bool{}}
	empty := map[Feature]bool{}
	g.fromEnv.Store(&empty)
	return g
}

// Enabled reports whether key is enabled. It panics when key is not a
// registered feature: asking for an unknown gate is a programming error.
func (g *envVarFeatureGates) Enabled(key Feature) bool {
	env := g.envValues()
	if v, ok := g.setValue(key); ok {
		return v
	}
	if v, ok := env[key]; ok {
		return v
	}
	if spec, ok := g.known[key]; ok {
		return spec.Default
	}
	panic(fmt.Errorf("feature %q is not registered in the client-go feature gates", key))
}

// Set sets the state of a registered feature. Features locked to their
// default cannot be changed.
func (g *envVarFeatureGates) Set(featureName Feature, featureValue bool) error {
	return g.set(featureName, featureValue, false)
}

// SetForTesting is like Set but may also change features locked to their
// default. It is meant for tests only.
func (g *envVarFeatureGates) SetForTesting(featureName Feature, featureValue bool) error {
	return g.set(featureName, featureValue, true)
}

func (g *envVarFeatureGates) set(name Feature, value bool, overrideLock bool) error {
	spec, ok := g.known[name]
	if !ok {
		return fmt.Errorf("feature %q is not registered in the client-go feature gates", name)
	}
	if !overrideLock && spec.LockToDefault && spec.Default != value {
		return fmt.Errorf("cannot set feature gate %q to %v, feature is locked to %v", name, value, spec.Default)
	}
	g.setMu.Lock()
	defer g.setMu.Unlock()
	g.fromSet[name] = value
	return nil
}

func (g *envVarFeatureGates) setValue(key Feature) (value, found bool) {
	g.setMu.RLock()
	defer g.setMu.RUnlock()
	value, found = g.fromSet[key]
	return value, found
}

// envValues returns the feature states given by the environment, reading
// it on the first call.
func (g *envVarFeatureGates) envValues() map[Feature]bool {
	g.readOnce.Do(func() {
		values := g.readEnv()
		g.fromEnv.Store(&values)
		g.envRead.Store(true)
	})
	return *g.fromEnv.Load()
}

// readEnv parses KUBE_FEATURE_<Name> for every known feature. Invalid
// values and attempts to change locked features are reported and ignored.
func (g *envVarFeatureGates) readEnv() map[Feature]bool {
	logger := klog.Background()
	values := map[Feature]bool{}
	for name, spec := range g.known {
		raw, set := os.LookupEnv(envVarPrefix + string(name))
		if !set {
			continue
		}
		value, err := strconv.ParseBool(raw)
		switch {
		case err != nil:
			utilruntime.HandleErrorWithLogger(logger, err, "Could not set feature gate from environment", "feature", name, "desiredState", raw)
		case spec.LockToDefault && value != spec.Default:
			utilruntime.HandleErrorWithLogger(logger, nil, "Could not set feature gate from environment, feature is locked", "feature", name, "desiredState", raw, "lockedState", spec.Default)
		default:
			values[name] = value
		}
	}
	for name, spec := range g.known {
		if value, ok := values[name]; ok {
			logger.V(1).Info("Feature gate set from environment", "feature", name, "enabled", value)
		} else {
			logger.V(1).Info("Feature gate at default", "feature", name, "enabled", spec.Default)
		}
	}
	return values
}

// hasAlreadyReadEnvVar reports whether the environment has been read.
func (g *envVarFeatureGates) hasAlreadyReadEnvVar() bool {
	return g.envRead.Load()
}
