package metadata

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/rest"
)

// resourcePath returns the path segments of resource in namespace (cluster
// scope when empty), followed by name and subresources when given.
func resourcePath(resource schema.GroupVersionResource, namespace, name string, subresources ...string) []string {
	segments := make([]string, 0, 7+len(subresources))
	if resource.Group == "" {
		segments = append(segments, "api", resource.Version)
	} else {
		segments = append(segments, "apis", resource.Group, resource.Version)
	}
	if namespace != "" {
		segments = append(segments, "namespaces", namespace)
	}
	segments = append(segments, resource.Resource)
	if name != "" {
		segments = append(segments, name)
	}
	return append(segments, subresources...)
}

// checkPathSegments rejects a namespace or name that cannot be one segment
// of a URL path ("..", or anything containing "/" or "%").
func checkPathSegments(namespace, name string) error {
	if problems := rest.IsValidPathSegmentName(namespace); len(problems) > 0 {
		return fmt.Errorf("invalid namespace %q: %v", namespace, problems)
	}
	if problems := rest.IsValidPathSegmentName(name); len(problems) > 0 {
		return fmt.Errorf("invalid resource name %q: %v", name, problems)
	}
	return nil
}
