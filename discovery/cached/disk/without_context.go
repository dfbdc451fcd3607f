package disk

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/openapi"
)

// The methods of CachedDiscoveryClient without a context are its
// ...WithContext methods with a background context.

// ServerResourcesForGroupVersion returns the resources of groupVersion.
//
// Prefer ServerResourcesForGroupVersionWithContext.
func (d *CachedDiscoveryClient) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerGroupsAndResources returns every group and the resources of all
// their versions.
//
// Prefer ServerGroupsAndResourcesWithContext.
func (d *CachedDiscoveryClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerGroups returns the group list.
//
// Prefer ServerGroupsWithContext.
func (d *CachedDiscoveryClient) ServerGroups() (*metav1.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerPreferredResources returns each resource in its preferred version.
//
// Prefer ServerPreferredResourcesWithContext.
func (d *CachedDiscoveryClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredResourcesWithContext(context.Background())
}

// ServerPreferredNamespacedResources returns each namespaced resource in its
// preferred version.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func (d *CachedDiscoveryClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredNamespacedResourcesWithContext(context.Background())
}

// ServerVersion asks the delegate; it is not cached.
//
// Prefer ServerVersionWithContext.
func (d *CachedDiscoveryClient) ServerVersion() (*version.Info, error) {
	return d.ServerVersionWithContext(context.Background())
}

// OpenAPISchema asks the delegate for the OpenAPI v2 document.
//
// Prefer OpenAPISchemaWithContext.
func (d *CachedDiscoveryClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.OpenAPISchemaWithContext(context.Background())
}

// OpenAPIV3 returns an OpenAPI v3 client caching in memory; with an HTTP
// cache directory the documents are also cached on disk.
//
// Prefer OpenAPIV3WithContext.
func (d *CachedDiscoveryClient) OpenAPIV3() openapi.Client {
	return d.openAPIV3(context.Background())
}

// Fresh reports whether every file used so far was written by this client,
// in which case retrying after a miss is pointless.
//
// Prefer FreshWithContext.
func (d *CachedDiscoveryClient) Fresh() bool {
	return d.FreshWithContext(context.Background())
}

// Invalidate makes the client ignore every file it has not written after
// this call, and invalidates the delegate.
//
// Prefer InvalidateWithContext.
func (d *CachedDiscoveryClient) Invalidate() {
	d.InvalidateWithContext(context.Background())
}

// WithLegacy returns d: the cache has no legacy-only mode.
func (d *CachedDiscoveryClient) WithLegacy() discovery.DiscoveryInterface {
	return d
}
