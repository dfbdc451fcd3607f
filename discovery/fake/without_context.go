package fake

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/openapi"
)

// The context-less forms of the discovery calls. Each one is its
// ...WithContext form with a background context (or, where the fake needs
// no context at all, the same answer), so the fake's behaviour lives in
// discovery.go only.

// ServerResourcesForGroupVersion returns the list in Resources whose
// GroupVersion is groupVersion, or a NotFound status error.
//
// Prefer ServerResourcesForGroupVersionWithContext.
func (c *FakeDiscovery) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	return c.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerGroupsAndResources returns the groups derived from Resources and
// Resources itself.
//
// Prefer ServerGroupsAndResourcesWithContext.
func (c *FakeDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return c.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerPreferredResources returns nothing.
//
// Prefer ServerPreferredResourcesWithContext.
func (c *FakeDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return c.ServerPreferredResourcesWithContext(context.Background())
}

// ServerPreferredNamespacedResources returns nothing.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func (c *FakeDiscovery) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return c.ServerPreferredNamespacedResourcesWithContext(context.Background())
}

// ServerGroups derives the groups from Resources, in the order their first
// group-version appears there; that first group-version is the preferred
// one.
//
// Prefer ServerGroupsWithContext.
func (c *FakeDiscovery) ServerGroups() (*metav1.APIGroupList, error) {
	return c.ServerGroupsWithContext(context.Background())
}

// ServerVersion returns FakedServerVersion, or this library's version.
//
// Prefer ServerVersionWithContext.
func (c *FakeDiscovery) ServerVersion() (*version.Info, error) {
	return c.ServerVersionWithContext(context.Background())
}

// OpenAPISchema returns an empty document.
//
// Prefer OpenAPISchemaWithContext.
func (c *FakeDiscovery) OpenAPISchema() (*openapi_v2.Document, error) {
	return c.OpenAPISchemaWithContext(context.Background())
}

// OpenAPIV3 returns a client whose Paths always fails: the fake has no
// OpenAPI v3 documents.
//
// Prefer OpenAPIV3WithContext.
func (c *FakeDiscovery) OpenAPIV3() openapi.Client {
	return unservedOpenAPI{}
}

// WithLegacy returns c itself: the fake has only one format.
//
// Prefer WithLegacyWithContext.
func (c *FakeDiscovery) WithLegacy() discovery.DiscoveryInterface {
	return c
}
