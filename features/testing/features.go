package testing

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	clientfeatures "github.com/kubeclient/client-go/features"
)

// settableGates is implemented by feature gates whose states can be set.
type settableGates interface {
	clientfeatures.Gates
	Set(clientfeatures.Feature, bool) error
}

// testSettableGates is implemented by feature gates that can also change
// features locked to their default, for tests.
type testSettableGates interface {
	settableGates
	SetForTesting(clientfeatures.Feature, bool) error
}

var (
	// overridesMu guards overrides.
	overridesMu sync.Mutex
	// overrides maps each currently overridden feature to the name of the
	// test that overrode it.
	overrides = map[clientfeatures.Feature]string{}
)

// SetFeatureDuringTest sets feature to featureValue in
// clientfeatures.FeatureGates() and restores the previous value when tb
// and its subtests finish.
//
// Two tests that are not a test and its subtest may not override the same
// feature at once: the second fails. It panics when the current feature
// gates cannot be set.
//
//	SetFeatureDuringTest(t, clientfeatures.WatchListClient, false)
func SetFeatureDuringTest(tb testing.TB, feature clientfeatures.Feature, featureValue bool) {
	tb.Helper()
	if err := setFeatureDuringTest(tb, feature, featureValue); err != nil {
		tb.Fatal(err)
	}
}

func setFeatureDuringTest(tb testing.TB, feature clientfeatures.Feature, featureValue bool) error {
	overridesMu.Lock()
	defer overridesMu.Unlock()

	current := clientfeatures.FeatureGates()
	gates, ok := current.(settableGates)
	if !ok {
		panic(fmt.Errorf("clientfeatures.FeatureGates() returned %T, which has no Set(Feature, bool) error method", current))
	}
	if owner, ok := overrides[feature]; ok && !isTestOrSubtest(tb.Name(), owner) {
		return fmt.Errorf("client-go feature %q is currently overridden by test %q and cannot also be modified by %q", feature, owner, tb.Name())
	}

	previous := gates.Enabled(feature)
	if err := setGate(gates, feature, featureValue); err != nil {
		return err
	}
	overrides[feature] = tb.Name()

	tb.Cleanup(func() {
		overridesMu.Lock()
		defer overridesMu.Unlock()
		delete(overrides, feature)
		if err := setGate(gates, feature, previous); err != nil {
			tb.Errorf("failed to restore client-go feature %q to %v: %v", feature, previous, err)
		}
	})
	return nil
}

func setGate(gates settableGates, feature clientfeatures.Feature, value bool) error {
	if forTesting, ok := gates.(testSettableGates); ok {
		return forTesting.SetForTesting(feature, value)
	}
	return gates.Set(feature, value)
}

// isTestOrSubtest reports whether name is owner or one of its subtests.
func isTestOrSubtest(name, owner string) bool {
	return name == owner || strings.HasPrefix(name, owner+"/")
}
