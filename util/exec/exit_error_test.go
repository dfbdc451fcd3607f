package exec

import (
	"errors"
	"testing"
)

func TestCodeExitError(t *testing.T) {
	base := errors.New("command terminated with exit code 3")
	tests := []struct {
		name     string
		err      CodeExitError
		wantMsg  string
		wantCode int
	}{
		{"wrapped", CodeExitError{Err: base, Code: 3}, "command terminated with exit code 3", 3},
		{"nil error", CodeExitError{Code: 7}, "command terminated with exit code 7", 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ee ExitError = tt.err
			if ee.Error() != tt.wantMsg || ee.String() != tt.wantMsg {
				t.Errorf("Error()=%q String()=%q, want %q", ee.Error(), ee.String(), tt.wantMsg)
			}
			if !ee.Exited() || ee.ExitStatus() != tt.wantCode {
				t.Errorf("Exited()=%v ExitStatus()=%d", ee.Exited(), ee.ExitStatus())
			}
			var target ExitError
			if !errors.As(error(tt.err), &target) {
				t.Error("errors.As did not find ExitError")
			}
		})
	}
}
