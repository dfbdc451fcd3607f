package discovery

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ErrGroupDiscoveryFailed reports the group-versions whose resources could
// not be discovered. It accompanies the partial results that could be.
type ErrGroupDiscoveryFailed struct {
	// Groups maps each failed group-version to the cause.
	Groups map[schema.GroupVersion]error
}

// Error implements error, listing the failures sorted by group-version.
func (e *ErrGroupDiscoveryFailed) Error() string {
	failures := make([]string, 0, len(e.Groups))
	for gv, err := range e.Groups {
		failures = append(failures, fmt.Sprintf("%s: %v", gv, err))
	}
	sort.Strings(failures)
	return "unable to retrieve the complete list of server APIs: " + strings.Join(failures, ", ")
}

// Is reports whether target is an *ErrGroupDiscoveryFailed, so that
// errors.Is(err, &ErrGroupDiscoveryFailed{}) finds one in a wrapped chain.
func (e *ErrGroupDiscoveryFailed) Is(target error) bool {
	_, ok := target.(*ErrGroupDiscoveryFailed)
	return ok
}

// IsGroupDiscoveryFailedError reports whether err itself (not a wrapper of
// it) is an *ErrGroupDiscoveryFailed, meaning the server's API list is
// incomplete.
func IsGroupDiscoveryFailedError(err error) bool {
	_, ok := err.(*ErrGroupDiscoveryFailed)
	return ok
}

// GroupDiscoveryFailedErrorGroups finds an *ErrGroupDiscoveryFailed in err's
// chain and returns its failed group-versions.
func GroupDiscoveryFailedErrorGroups(err error) (map[schema.GroupVersion]error, bool) {
	var failed *ErrGroupDiscoveryFailed
	if errors.As(err, &failed) {
		return failed.Groups, true
	}
	return nil, false
}
