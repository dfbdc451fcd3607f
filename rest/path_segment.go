package rest

import (
	"fmt"
	"strings"
)

// NameMayNotBe lists names that can never be a path segment.
var NameMayNotBe = []string{".", ".."}

// NameMayNotContain lists substrings a path segment name may not contain.
var NameMayNotContain = []string{"/", "%"}

// IsValidPathSegmentName returns why name cannot be used as one URL path
// segment, or nothing when it can.
func IsValidPathSegmentName(name string) []string {
	for _, bad := range NameMayNotBe {
		if name == bad {
			return []string{fmt.Sprintf(`may not be '%s'`, bad)}
		}
	}
	return IsValidPathSegmentPrefix(name)
}

// IsValidPathSegmentPrefix returns why name cannot start a path segment. The
// names in NameMayNotBe are allowed since a suffix can make them valid.
func IsValidPathSegmentPrefix(name string) []string {
	var problems []string
	for _, bad := range NameMayNotContain {
		if strings.Contains(name, bad) {
			problems = append(problems, fmt.Sprintf(`may not contain '%s'`, bad))
		}
	}
	return problems
}

// ValidatePathSegmentName validates name as a whole path segment, or as the
// prefix of one when prefix is set.
func ValidatePathSegmentName(name string, prefix bool) []string {
	if prefix {
		return IsValidPathSegmentPrefix(name)
	}
	return IsValidPathSegmentName(name)
}
