package util

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestValidateEventType(t *testing.T) {
	for typ, want := range map[string]bool{"Normal": true, "Warning": true, "": false, "normal": false, "Error": false} {
		if got := ValidateEventType(typ); got != want {
			t.Errorf("ValidateEventType(%q) = %v, want %v", typ, got, want)
		}
	}
}

func TestIsKeyNotFoundError(t *testing.T) {
	gr := schema.GroupResource{Resource: "events"}
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("not found"), false},
		{apierrors.NewNotFound(gr, "e"), true},
		{fmt.Errorf("wrapped: %w", apierrors.NewNotFound(gr, "e")), true},
		{apierrors.NewConflict(gr, "e", errors.New("x")), false},
	}
	for _, tt := range tests {
		if got := IsKeyNotFoundError(tt.err); got != tt.want {
			t.Errorf("IsKeyNotFoundError(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestGenerateEventName(t *testing.T) {
	if got := GenerateEventName("pod-1", 255); got != "pod-1.ff" {
		t.Errorf("GenerateEventName = %q, want pod-1.ff", got)
	}
	for _, bad := range []string{"Upper_Case:name", strings.Repeat("a", 260)} {
		got := GenerateEventName(bad, 1)
		if !uuidRE.MatchString(got) {
			t.Errorf("GenerateEventName(%q) = %q, want a UUID", bad, got)
		}
	}
	if GenerateEventName("Bad:Name", 1) == GenerateEventName("Bad:Name", 1) {
		t.Error("fallback names are not unique")
	}
}
