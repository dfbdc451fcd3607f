package discovery

import (
	"context"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/openapi"
	restclient "github.com/kubeclient/client-go/rest"
)

// DiscoveryInterface discovers the API groups, versions and resources a
// server supports.
//
// Prefer DiscoveryInterfaceWithContext.
type DiscoveryInterface interface {
	RESTClient() restclient.Interface
	ServerGroupsInterface
	ServerResourcesInterface
	ServerVersionInterface
	OpenAPISchemaInterface
	OpenAPIV3SchemaInterface
	// WithLegacy returns a copy of the client restricted to the legacy
	// discovery format, or the client itself if it has no such mode.
	WithLegacy() DiscoveryInterface
}

// DiscoveryInterfaceWithContext is DiscoveryInterface with a context on every
// call.
type DiscoveryInterfaceWithContext interface {
	RESTClient() restclient.Interface
	ServerGroupsInterfaceWithContext
	ServerResourcesInterfaceWithContext
	ServerVersionInterfaceWithContext
	OpenAPISchemaInterfaceWithContext
	OpenAPIV3SchemaInterfaceWithContext
	// WithLegacyWithContext returns a copy of the client restricted to the
	// legacy discovery format, or the client itself if it has no such mode.
	WithLegacyWithContext(ctx context.Context) DiscoveryInterfaceWithContext
}

// DiscoveryInterfaces is implemented by clients offering both flavours.
type DiscoveryInterfaces interface {
	DiscoveryInterface
	DiscoveryInterfaceWithContext
}

// AggregatedDiscoveryInterface is a DiscoveryInterface that may obtain
// resources together with groups, as the aggregated discovery format allows.
//
// Prefer AggregatedDiscoveryInterfaceWithContext.
type AggregatedDiscoveryInterface interface {
	DiscoveryInterface

	// GroupsAndMaybeResources returns the server's groups and, when the
	// server answered in the aggregated format, the resources of each
	// group-version (nil otherwise) and the group-versions that failed.
	GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error)
}

// AggregatedDiscoveryInterfaceWithContext is AggregatedDiscoveryInterface
// with a context on every call.
type AggregatedDiscoveryInterfaceWithContext interface {
	DiscoveryInterfaceWithContext

	// GroupsAndMaybeResourcesWithContext is GroupsAndMaybeResources with a
	// context.
	GroupsAndMaybeResourcesWithContext(ctx context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error)
}

// CachedDiscoveryInterface is a DiscoveryInterface backed by a cache. A
// cache miss reported by ServerResourcesForGroupVersion persists until
// Invalidate is called.
//
// Prefer CachedDiscoveryInterfaceWithContext.
type CachedDiscoveryInterface interface {
	DiscoveryInterface
	// Fresh reports whether the cached data was fetched by this client
	// instance, in which case retrying after a miss is pointless.
	Fresh() bool
	// Invalidate discards everything cached before now.
	Invalidate()
}

// CachedDiscoveryInterfaceWithContext is CachedDiscoveryInterface with a
// context on every call.
type CachedDiscoveryInterfaceWithContext interface {
	DiscoveryInterfaceWithContext
	// FreshWithContext reports whether the cached data was fetched by this
	// client instance.
	FreshWithContext(ctx context.Context) bool
	// InvalidateWithContext discards everything cached before now.
	InvalidateWithContext(ctx context.Context)
}

// ServerGroupsInterface lists the API groups of a server.
//
// Prefer ServerGroupsInterfaceWithContext.
type ServerGroupsInterface interface {
	// ServerGroups returns the supported groups with their versions and
	// preferred version.
	ServerGroups() (*metav1.APIGroupList, error)
}

// ServerGroupsInterfaceWithContext lists the API groups of a server.
type ServerGroupsInterfaceWithContext interface {
	// ServerGroupsWithContext returns the supported groups with their
	// versions and preferred version.
	ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error)
}

// ServerResourcesInterface lists the API resources of a server.
//
// Prefer ServerResourcesInterfaceWithContext.
type ServerResourcesInterface interface {
	// ServerResourcesForGroupVersion returns the resources of one
	// group-version, written "group/version" or "v1" for the core group.
	ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error)
	// ServerGroupsAndResources returns every group and the resources of all
	// their versions. Partial results may accompany an error.
	ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error)
	// ServerPreferredResources returns each resource once, in the version
	// the server prefers. Partial results may accompany an error.
	ServerPreferredResources() ([]*metav1.APIResourceList, error)
	// ServerPreferredNamespacedResources is ServerPreferredResources limited
	// to namespaced resources. Partial results may accompany an error.
	ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error)
}

// ServerResourcesInterfaceWithContext lists the API resources of a server.
type ServerResourcesInterfaceWithContext interface {
	// ServerResourcesForGroupVersionWithContext returns the resources of one
	// group-version.
	ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error)
	// ServerGroupsAndResourcesWithContext returns every group and the
	// resources of all their versions. Partial results may accompany an
	// error.
	ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error)
	// ServerPreferredResourcesWithContext returns each resource once, in the
	// version the server prefers. Partial results may accompany an error.
	ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error)
	// ServerPreferredNamespacedResourcesWithContext is
	// ServerPreferredResourcesWithContext limited to namespaced resources.
	ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error)
}

// ServerVersionInterface reads the version of a server.
//
// Prefer ServerVersionInterfaceWithContext.
type ServerVersionInterface interface {
	// ServerVersion returns the server's build information.
	ServerVersion() (*version.Info, error)
}

// ServerVersionInterfaceWithContext reads the version of a server.
type ServerVersionInterfaceWithContext interface {
	// ServerVersionWithContext returns the server's build information.
	ServerVersionWithContext(ctx context.Context) (*version.Info, error)
}

// OpenAPISchemaInterface reads the OpenAPI v2 document of a server.
//
// Prefer OpenAPISchemaInterfaceWithContext.
type OpenAPISchemaInterface interface {
	// OpenAPISchema downloads and parses the server's OpenAPI v2 document.
	OpenAPISchema() (*openapi_v2.Document, error)
}

// OpenAPISchemaInterfaceWithContext reads the OpenAPI v2 document of a
// server.
type OpenAPISchemaInterfaceWithContext interface {
	// OpenAPISchemaWithContext downloads and parses the server's OpenAPI v2
	// document.
	OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error)
}

// OpenAPIV3SchemaInterface gives access to the OpenAPI v3 documents of a
// server.
//
// Prefer OpenAPIV3SchemaInterfaceWithContext.
type OpenAPIV3SchemaInterface interface {
	OpenAPIV3() openapi.Client
}

// OpenAPIV3SchemaInterfaceWithContext gives access to the OpenAPI v3
// documents of a server.
type OpenAPIV3SchemaInterfaceWithContext interface {
	OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext
}
