package memory

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/openapi"
)

// The methods of memCacheClient without a context are its ...WithContext
// methods with a background context.

// ServerResourcesForGroupVersion returns the cached resources of
// groupVersion.
//
// Prefer ServerResourcesForGroupVersionWithContext.
func (d *memCacheClient) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerGroupsAndResources returns the cached groups and resources.
//
// Prefer ServerGroupsAndResourcesWithContext.
func (d *memCacheClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// GroupsAndMaybeResources returns the cached groups and, when the cache was
// filled from aggregated discovery, the cached resources and failures.
//
// Prefer GroupsAndMaybeResourcesWithContext.
func (d *memCacheClient) GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	return d.GroupsAndMaybeResourcesWithContext(context.Background())
}

// ServerGroups returns the cached group list.
//
// Prefer ServerGroupsWithContext.
func (d *memCacheClient) ServerGroups() (*metav1.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerPreferredResources computes the preferred resources from the cache.
//
// Prefer ServerPreferredResourcesWithContext.
func (d *memCacheClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredResourcesWithContext(context.Background())
}

// ServerPreferredNamespacedResources computes the preferred namespaced
// resources from the cache.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func (d *memCacheClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredNamespacedResourcesWithContext(context.Background())
}

// ServerVersion asks the delegate; it is not cached.
//
// Prefer ServerVersionWithContext.
func (d *memCacheClient) ServerVersion() (*version.Info, error) {
	return d.ServerVersionWithContext(context.Background())
}

// OpenAPISchema asks the delegate; it is not cached.
//
// Prefer OpenAPISchemaWithContext.
func (d *memCacheClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.OpenAPISchemaWithContext(context.Background())
}

// OpenAPIV3 returns an OpenAPI v3 client that caches the path listing and
// the documents in memory until Invalidate.
//
// Prefer OpenAPIV3WithContext.
func (d *memCacheClient) OpenAPIV3() openapi.Client {
	return d.openAPIV3(context.Background())
}

// Fresh reports whether the cache is filled.
//
// Prefer FreshWithContext.
func (d *memCacheClient) Fresh() bool {
	return d.FreshWithContext(context.Background())
}

// Invalidate empties the cache, and the delegate's if it is cached too.
//
// Prefer InvalidateWithContext.
func (d *memCacheClient) Invalidate() {
	d.InvalidateWithContext(context.Background())
}

// WithLegacy returns d: the cache has no legacy-only mode.
//
// Prefer WithLegacyWithContext.
func (d *memCacheClient) WithLegacy() discovery.DiscoveryInterface {
	return d
}
