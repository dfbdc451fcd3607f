package fastpath

import "testing"

func TestNewSwitchReadsItsVariableAndTheGlobalOne(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		expected bool
	}{
		{"unset", nil, true},
		{"own false", map[string]string{"X": "false"}, false},
		{"own 0", map[string]string{"X": "0"}, false},
		{"own true", map[string]string{"X": "true"}, true},
		{"own garbage", map[string]string{"X": "nope"}, true},
		{"all false", map[string]string{AllEnv: "false"}, false},
		{"all false, own true", map[string]string{AllEnv: "false", "X": "true"}, false},
		{"all true, own false", map[string]string{AllEnv: "true", "X": "false"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSwitch("X", func(k string) string { return tc.env[k] })
			if s.On() != tc.expected {
				t.Fatalf("On() = %v, want %v", s.On(), tc.expected)
			}
		})
	}
}

func TestSetRestores(t *testing.T) {
	s := newSwitch("X", func(string) string { return "" })
	restore := s.Set(false)
	if s.On() {
		t.Fatal("Set(false) left the switch on")
	}
	restore()
	if !s.On() {
		t.Fatal("restore did not turn the switch back on")
	}
}

func TestAllListsDistinctVariables(t *testing.T) {
	seen := map[string]bool{AllEnv: true}
	for _, s := range All() {
		if seen[s.Env] {
			t.Fatalf("variable %s used twice", s.Env)
		}
		seen[s.Env] = true
	}
}
