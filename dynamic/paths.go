package dynamic

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/rest"
)

// resourcePath returns the path segments of resource in namespace (cluster
// scope when empty), followed by name and subresources when given:
//
//	/api/v1/namespaces/ns/pods/name/status
//	/apis/example.com/v1/widgets
func resourcePath(resource schema.GroupVersionResource, namespace, name string, subresources ...string) []string {
	segments := make([]string, 0, 7+len(subresources))
	if resource.Group == "" {
		segments = append(segments, "api")
	} else {
		segments = append(segments, "apis", resource.Group)
	}
	segments = append(segments, resource.Version)
	if namespace != "" {
		segments = append(segments, "namespaces", namespace)
	}
	segments = append(segments, resource.Resource)
	if name != "" {
		segments = append(segments, name)
	}
	return append(segments, subresources...)
}

// checkPathSegments rejects a namespace or name that could not be used as
// one segment of a URL path, such as "..", or one containing "/" or "%".
// An empty name is not checked here: callers decide whether it is required.
func checkPathSegments(namespace, name string) error {
	if problems := rest.IsValidPathSegmentName(namespace); len(problems) > 0 {
		return fmt.Errorf("invalid namespace %q: %v", namespace, problems)
	}
	if problems := rest.IsValidPathSegmentName(name); len(problems) > 0 {
		return fmt.Errorf("invalid resource name %q: %v", name, problems)
	}
	return nil
}
