package features

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/version"
)

func TestDefaultsOfKnownFeatures(t *testing.T) {
	want := map[Feature]bool{
		AtomicFIFO:                   true,
		ClientsAllowCARotation:       true,
		ClientsAllowCBOR:             false,
		ClientsAllowTLSCacheGC:       true,
		ClientsPreferCBOR:            false,
		InOrderInformers:             true,
		InOrderInformersBatchProcess: true,
		InformerResourceVersion:      true,
		UnlockWhileProcessingFIFO:    true,
		WatchListClient:              true,
	}
	gates := newEnvVarFeatureGates(unversionedFeatureGates(defaultVersionedKubernetesFeatureGates))
	if len(defaultVersionedKubernetesFeatureGates) != len(want) {
		t.Errorf("%d features registered, want %d", len(defaultVersionedKubernetesFeatureGates), len(want))
	}
	for name, enabled := range want {
		if got := gates.Enabled(name); got != enabled {
			t.Errorf("Enabled(%s) = %v, want %v", name, got, enabled)
		}
	}
}

func TestVersionedSpecsAreOrdered(t *testing.T) {
	for name, specs := range defaultVersionedKubernetesFeatureGates {
		if len(specs) == 0 {
			t.Errorf("%s has no specs", name)
		}
		for i := 1; i < len(specs); i++ {
			if !specs[i-1].Version.LessThan(specs[i].Version) {
				t.Errorf("%s: spec %d version %v is not above %v", name, i, specs[i].Version, specs[i-1].Version)
			}
		}
	}
}

func TestEnvironmentOverrides(t *testing.T) {
	known := map[Feature]FeatureSpec{
		"Off":       {Default: false, PreRelease: Alpha},
		"On":        {Default: true, PreRelease: Beta},
		"LockedOn":  {Default: true, PreRelease: GA, LockToDefault: true},
		"Untouched": {Default: true, PreRelease: Beta},
	}
	tests := []struct {
		name string
		env  map[string]string
		want map[Feature]bool
	}{
		{
			name: "no variables",
			want: map[Feature]bool{"Off": false, "On": true, "LockedOn": true, "Untouched": true},
		},
		{
			name: "enable and disable",
			env:  map[string]string{"KUBE_FEATURE_Off": "true", "KUBE_FEATURE_On": "0"},
			want: map[Feature]bool{"Off": true, "On": false, "LockedOn": true, "Untouched": true},
		},
		{
			name: "invalid value is ignored",
			env:  map[string]string{"KUBE_FEATURE_Off": "yes please", "KUBE_FEATURE_On": "F"},
			want: map[Feature]bool{"Off": false, "On": false, "LockedOn": true, "Untouched": true},
		},
		{
			name: "locked feature keeps its default",
			env:  map[string]string{"KUBE_FEATURE_LockedOn": "false"},
			want: map[Feature]bool{"Off": false, "On": true, "LockedOn": true, "Untouched": true},
		},
		{
			name: "name is case sensitive",
			env:  map[string]string{"KUBE_FEATURE_off": "true", "KUBE_FEATURE_OFF": "true"},
			want: map[Feature]bool{"Off": false, "On": true, "LockedOn": true, "Untouched": true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			gates := newEnvVarFeatureGates(known)
			if gates.hasAlreadyReadEnvVar() {
				t.Fatal("environment read before first use")
			}
			for name, want := range tt.want {
				if got := gates.Enabled(name); got != want {
					t.Errorf("Enabled(%s) = %v, want %v", name, got, want)
				}
			}
			if !gates.hasAlreadyReadEnvVar() {
				t.Error("environment not marked as read after use")
			}
		})
	}
}

func TestEnvironmentIsReadOnce(t *testing.T) {
	t.Setenv("KUBE_FEATURE_F", "true")
	gates := newEnvVarFeatureGates(map[Feature]FeatureSpec{"F": {Default: false}})
	if !gates.Enabled("F") {
		t.Fatal("F not enabled from environment")
	}
	t.Setenv("KUBE_FEATURE_F", "false")
	if !gates.Enabled("F") {
		t.Error("a later change of the environment was picked up")
	}
}

func TestSet(t *testing.T) {
	known := map[Feature]FeatureSpec{
		"Plain":  {Default: false},
		"Locked": {Default: true, LockToDefault: true},
	}
	tests := []struct {
		name       string
		feature    Feature
		value      bool
		forTesting bool
		wantErr    string
		wantState  bool
	}{
		{name: "enable", feature: "Plain", value: true, wantState: true},
		{name: "locked to its own default", feature: "Locked", value: true, wantState: true},
		{name: "locked away from default", feature: "Locked", value: false, wantErr: "locked", wantState: true},
		{name: "locked, for testing", feature: "Locked", value: false, forTesting: true, wantState: false},
		{name: "unknown", feature: "Nope", value: true, wantErr: "not registered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KUBE_FEATURE_Plain", "false")
			gates := newEnvVarFeatureGates(known)
			var err error
			if tt.forTesting {
				err = gates.SetForTesting(tt.feature, tt.value)
			} else {
				err = gates.Set(tt.feature, tt.value)
			}
			if tt.wantErr == "" && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				if _, ok := known[tt.feature]; !ok {
					return
				}
			}
			if got := gates.Enabled(tt.feature); got != tt.wantState {
				t.Errorf("Enabled = %v, want %v", got, tt.wantState)
			}
			if !gates.hasAlreadyReadEnvVar() {
				t.Error("Enabled on a set feature did not read the environment")
			}
		})
	}
}

func TestEnabledPanicsOnUnknownFeature(t *testing.T) {
	gates := newEnvVarFeatureGates(map[Feature]FeatureSpec{})
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !strings.Contains(err.Error(), `"Unknown"`) {
			t.Errorf("recovered %v, want an error naming the feature", r)
		}
	}()
	gates.Enabled("Unknown")
}

type recordingRegistry struct {
	added     map[Feature]FeatureSpec
	versioned map[Feature]VersionedSpecs
	err       error
}

func (r *recordingRegistry) Add(in map[Feature]FeatureSpec) error {
	r.added = in
	return r.err
}

func (r *recordingRegistry) AddVersioned(in map[Feature]VersionedSpecs) error {
	r.versioned = in
	return r.err
}

func TestAddFeaturesToExistingFeatureGates(t *testing.T) {
	reg := &recordingRegistry{}
	if err := AddFeaturesToExistingFeatureGates(reg); err != nil {
		t.Fatal(err)
	}
	if len(reg.added) != len(defaultVersionedKubernetesFeatureGates) {
		t.Fatalf("added %d features, want %d", len(reg.added), len(defaultVersionedKubernetesFeatureGates))
	}
	wantLatest := map[Feature]FeatureSpec{
		InOrderInformers:        {Default: true, PreRelease: GA, LockToDefault: true},
		InformerResourceVersion: {Default: true, PreRelease: GA},
		WatchListClient:         {Default: true, PreRelease: Beta},
		ClientsAllowCBOR:        {Default: false, PreRelease: Alpha},
	}
	for name, want := range wantLatest {
		if got := reg.added[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	for name, spec := range reg.added {
		if spec.Version != nil {
			t.Errorf("%s carries version %v in the unversioned registration", name, spec.Version)
		}
	}

	reg.err = errors.New("duplicate feature")
	if err := AddFeaturesToExistingFeatureGates(reg); err != reg.err {
		t.Errorf("error = %v, want the registry's error", err)
	}
}

func TestAddVersionedFeaturesToExistingFeatureGates(t *testing.T) {
	reg := &recordingRegistry{}
	if err := AddVersionedFeaturesToExistingFeatureGates(reg); err != nil {
		t.Fatal(err)
	}
	specs := reg.versioned[WatchListClient]
	if len(specs) != 2 || !specs[0].Version.EqualTo(version.MustParse("1.30")) || specs[0].Default || !specs[1].Default {
		t.Errorf("WatchListClient specs = %+v", specs)
	}
}

type staticGates map[Feature]bool

func (g staticGates) Enabled(key Feature) bool { return g[key] }

func TestReplaceFeatureGates(t *testing.T) {
	original := FeatureGates()
	t.Cleanup(func() { current.Store(&gatesHolder{gates: original}) })

	fresh := newEnvVarFeatureGates(map[Feature]FeatureSpec{"F": {Default: true}})
	current.Store(&gatesHolder{gates: fresh})
	if replaceFeatureGates(staticGates{"F": false}) {
		t.Error("replacing unused default gates reported earlier use")
	}
	if FeatureGates().Enabled("F") {
		t.Error("replacement not in effect")
	}

	used := newEnvVarFeatureGates(map[Feature]FeatureSpec{"F": {Default: true}})
	used.Enabled("F")
	current.Store(&gatesHolder{gates: used})
	if !replaceFeatureGates(staticGates{"F": true}) {
		t.Error("replacing already consulted gates did not report it")
	}

	ReplaceFeatureGates(staticGates{WatchListClient: false})
	if FeatureGates().Enabled(WatchListClient) {
		t.Error("ReplaceFeatureGates not in effect")
	}
}

func TestConcurrentEnabledAndSet(t *testing.T) {
	t.Setenv("KUBE_FEATURE_F", "true")
	gates := newEnvVarFeatureGates(map[Feature]FeatureSpec{"F": {Default: false}, "G": {Default: true}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 500; i++ {
			if err := gates.Set("G", i%2 == 0); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := 0; i < 500; i++ {
		if !gates.Enabled("F") {
			t.Fatal("F lost its environment value")
		}
		gates.Enabled("G")
	}
	<-done
	if gates.Enabled("G") {
		t.Error("G = true after the last Set(false)")
	}
}
