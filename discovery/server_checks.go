package discovery

import (
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apimachineryversion "k8s.io/apimachinery/pkg/version"
)

// IsResourceEnabled reports whether the server serves resourceToCheck. A
// group-version the server does not know (404) means false, not an error.
func IsResourceEnabled(client DiscoveryInterface, resourceToCheck schema.GroupVersionResource) (bool, error) {
	list, err := client.ServerResourcesForGroupVersion(resourceToCheck.GroupVersion().String())
	switch {
	case apierrors.IsNotFound(err):
		return false, nil // the group-version itself is not served
	case err != nil:
		return false, err
	}
	named := func(r metav1.APIResource) bool { return r.Name == resourceToCheck.Resource }
	return slices.ContainsFunc(list.APIResources, named), nil
}

// MatchesServerVersion returns an error unless the server reports the same
// GitVersion, GitCommit and GitTreeState as clientVersion.
func MatchesServerVersion(clientVersion apimachineryversion.Info, client DiscoveryInterface) error {
	server, err := client.ServerVersion()
	if err != nil {
		return fmt.Errorf("couldn't read version from server: %w", err)
	}
	if server.GitVersion != clientVersion.GitVersion ||
		server.GitCommit != clientVersion.GitCommit ||
		server.GitTreeState != clientVersion.GitTreeState {
		return fmt.Errorf("server version (%#v) differs from client version (%#v)", server, clientVersion)
	}
	return nil
}

// ServerSupportsVersion returns an error if the server lists group-versions
// but not requiredGV. A server listing none is assumed to support it.
func ServerSupportsVersion(client DiscoveryInterface, requiredGV schema.GroupVersion) error {
	groups, err := client.ServerGroups()
	if err != nil {
		return err
	}
	served := metav1.ExtractGroupVersions(groups)
	if len(served) == 0 {
		return nil
	}
	for _, gv := range served {
		if gv == requiredGV.String() {
			return nil
		}
	}
	return fmt.Errorf("server does not support API version %q", requiredGV)
}
