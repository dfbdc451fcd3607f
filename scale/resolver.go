package scale

import (
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
)

// PreferredResourceMapper picks the version of a resource to address.
type PreferredResourceMapper interface {
	// ResourceFor completes a partial resource into the preferred full one.
	ResourceFor(resource schema.GroupVersionResource) (preferredResource schema.GroupVersionResource, err error)
}

// ScaleKindResolver tells which Scale kind a resource's scale subresource
// speaks.
type ScaleKindResolver interface {
	// ScaleForResource returns the GroupVersionKind of the scale subresource
	// of resource.
	ScaleForResource(resource schema.GroupVersionResource) (scaleVersion schema.GroupVersionKind, err error)
}

// NewDiscoveryScaleKindResolver returns a ScaleKindResolver that reads the
// "<resource>/scale" entries of discovery and remembers each answer.
func NewDiscoveryScaleKindResolver(client discovery.ServerResourcesInterface) ScaleKindResolver {
	return &memoizingScaleKindResolver{
		delegate: discoveryScaleKindResolver{client: client},
		known:    map[schema.GroupVersionResource]schema.GroupVersionKind{},
	}
}

// discoveryScaleKindResolver answers from the discovery document of the
// resource's group-version.
type discoveryScaleKindResolver struct {
	client discovery.ServerResourcesInterface
}

func (r discoveryScaleKindResolver) ScaleForResource(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	gv := resource.GroupVersion()
	list, err := r.client.ServerResourcesForGroupVersion(gv.String())
	if err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("unable to fetch discovery information for %s: %w", resource.String(), err)
	}
	for _, entry := range list.APIResources {
		parent, sub, ok := strings.Cut(entry.Name, "/")
		if !ok || parent != resource.Resource || sub != "scale" {
			continue
		}
		// A subresource may be served in a group-version of its own, given
		// by Group and Version; otherwise it shares its parent's.
		scaleGV := gv
		if entry.Group != "" && entry.Version != "" {
			scaleGV = schema.GroupVersion{Group: entry.Group, Version: entry.Version}
		}
		return scaleGV.WithKind(entry.Kind), nil
	}
	return schema.GroupVersionKind{}, fmt.Errorf("could not find scale subresource for %s in discovery information", resource.String())
}

// memoizingScaleKindResolver remembers the successful answers of delegate.
// Concurrent misses for one resource may each ask delegate; that keeps a slow
// lookup from blocking lookups of other resources.
type memoizingScaleKindResolver struct {
	delegate ScaleKindResolver

	mu    sync.RWMutex // guards known
	known map[schema.GroupVersionResource]schema.GroupVersionKind
}

func (r *memoizingScaleKindResolver) ScaleForResource(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	r.mu.RLock()
	gvk, ok := r.known[resource]
	r.mu.RUnlock()
	if ok {
		return gvk, nil
	}
	gvk, err := r.delegate.ScaleForResource(resource)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	r.mu.Lock()
	r.known[resource] = gvk
	r.mu.Unlock()
	return gvk, nil
}
