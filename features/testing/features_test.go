package testing

import (
	"strings"
	"testing"

	clientfeatures "github.com/kubeclient/client-go/features"
)

func TestSetFeatureDuringTestRestores(t *testing.T) {
	tests := []struct {
		name    string
		feature clientfeatures.Feature
		value   bool
	}{
		{name: "disable default-on", feature: clientfeatures.WatchListClient, value: false},
		{name: "enable default-off", feature: clientfeatures.ClientsAllowCBOR, value: true},
		{name: "locked feature", feature: clientfeatures.InOrderInformers, value: false},
	}
	for _, tt := range tests {
		before := clientfeatures.FeatureGates().Enabled(tt.feature)
		t.Run(tt.name, func(t *testing.T) {
			SetFeatureDuringTest(t, tt.feature, tt.value)
			if got := clientfeatures.FeatureGates().Enabled(tt.feature); got != tt.value {
				t.Errorf("Enabled(%s) = %v during the test, want %v", tt.feature, got, tt.value)
			}
		})
		if got := clientfeatures.FeatureGates().Enabled(tt.feature); got != before {
			t.Errorf("Enabled(%s) = %v after the test, want the original %v", tt.feature, got, before)
		}
	}
}

func TestSubtestMayOverrideAgain(t *testing.T) {
	SetFeatureDuringTest(t, clientfeatures.ClientsPreferCBOR, true)
	t.Run("child", func(t *testing.T) {
		SetFeatureDuringTest(t, clientfeatures.ClientsPreferCBOR, false)
		if clientfeatures.FeatureGates().Enabled(clientfeatures.ClientsPreferCBOR) {
			t.Error("child override not in effect")
		}
	})
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.ClientsPreferCBOR) {
		t.Error("parent value not restored after the child test")
	}
}

// namedTB is a testing.TB with a chosen name whose cleanups run on demand.
type namedTB struct {
	testing.TB
	name     string
	cleanups []func()
}

func (n *namedTB) Name() string          { return n.name }
func (n *namedTB) Cleanup(f func())      { n.cleanups = append(n.cleanups, f) }
func (n *namedTB) Helper()               {}
func (n *namedTB) Errorf(string, ...any) {}
func (n *namedTB) runCleanups() {
	for i := len(n.cleanups) - 1; i >= 0; i-- {
		n.cleanups[i]()
	}
}

func TestConcurrentOverrideByAnotherTestFails(t *testing.T) {
	first := &namedTB{TB: t, name: "TestFirst"}
	defer first.runCleanups()
	if err := setFeatureDuringTest(first, clientfeatures.AtomicFIFO, false); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		wantErr bool
	}{
		{name: "TestSecond", wantErr: true},
		{name: "TestFirstish", wantErr: true},
		{name: "TestFirst/sub", wantErr: false},
	}
	for _, tt := range tests {
		other := &namedTB{TB: t, name: tt.name}
		err := setFeatureDuringTest(other, clientfeatures.AtomicFIFO, true)
		if tt.wantErr {
			if err == nil || !strings.Contains(err.Error(), "TestFirst") {
				t.Errorf("%s: error = %v, want one naming the owning test", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %v", tt.name, err)
		}
		other.runCleanups()
	}
}
