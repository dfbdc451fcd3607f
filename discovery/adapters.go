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

// The adapters below lift an implementation of an original interface to its
// ...WithContext counterpart. Each returns its argument unchanged when it
// already implements the counterpart, and otherwise drops the context when
// delegating. A nil argument yields nil.

// ToDiscoveryInterfaceWithContext adapts a DiscoveryInterface. When i also
// implements AggregatedDiscoveryInterface, the result implements
// AggregatedDiscoveryInterfaceWithContext, so that the package functions can
// still use aggregated discovery through it.
func ToDiscoveryInterfaceWithContext(i DiscoveryInterface) DiscoveryInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(DiscoveryInterfaceWithContext); ok {
		return withCtx
	}
	if aggregated, ok := i.(AggregatedDiscoveryInterface); ok {
		return &aggregatedDiscoveryAdapter{DiscoveryInterfaceWithContext: newDiscoveryAdapter(i), legacy: aggregated}
	}
	return newDiscoveryAdapter(i)
}

func newDiscoveryAdapter(i DiscoveryInterface) *discoveryAdapter {
	return &discoveryAdapter{
		ServerGroupsInterfaceWithContext:    ToServerGroupsInterfaceWithContext(i),
		ServerResourcesInterfaceWithContext: ToServerResourcesInterfaceWithContext(i),
		ServerVersionInterfaceWithContext:   ToServerVersionInterfaceWithContext(i),
		OpenAPISchemaInterfaceWithContext:   ToOpenAPISchemaInterfaceWithContext(i),
		OpenAPIV3SchemaInterfaceWithContext: OpenAPIV3ToSchemaInterfaceWithContext(i),
		legacy:                              i,
	}
}

type discoveryAdapter struct {
	ServerGroupsInterfaceWithContext
	ServerResourcesInterfaceWithContext
	ServerVersionInterfaceWithContext
	OpenAPISchemaInterfaceWithContext
	OpenAPIV3SchemaInterfaceWithContext
	legacy DiscoveryInterface
}

func (a *discoveryAdapter) RESTClient() restclient.Interface { return a.legacy.RESTClient() }

func (a *discoveryAdapter) WithLegacyWithContext(context.Context) DiscoveryInterfaceWithContext {
	return ToDiscoveryInterfaceWithContext(a.legacy.WithLegacy())
}

// ToAggregatedDiscoveryInterfaceWithContext adapts an
// AggregatedDiscoveryInterface.
func ToAggregatedDiscoveryInterfaceWithContext(i AggregatedDiscoveryInterface) AggregatedDiscoveryInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(AggregatedDiscoveryInterfaceWithContext); ok {
		return withCtx
	}
	if withCtx, ok := i.(DiscoveryInterfaceWithContext); ok {
		return &aggregatedDiscoveryAdapter{DiscoveryInterfaceWithContext: withCtx, legacy: i}
	}
	return &aggregatedDiscoveryAdapter{DiscoveryInterfaceWithContext: newDiscoveryAdapter(i), legacy: i}
}

type aggregatedDiscoveryAdapter struct {
	DiscoveryInterfaceWithContext
	legacy AggregatedDiscoveryInterface
}

func (a *aggregatedDiscoveryAdapter) GroupsAndMaybeResourcesWithContext(context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	return a.legacy.GroupsAndMaybeResources()
}

// ToCachedDiscoveryInterfaceWithContext adapts a CachedDiscoveryInterface.
func ToCachedDiscoveryInterfaceWithContext(i CachedDiscoveryInterface) CachedDiscoveryInterfaceWithContext {
	switch i := i.(type) {
	case nil:
		return nil
	case CachedDiscoveryInterfaceWithContext:
		return i
	default:
		return &cachedDiscoveryAdapter{DiscoveryInterfaceWithContext: ToDiscoveryInterfaceWithContext(i), legacy: i}
	}
}

type cachedDiscoveryAdapter struct {
	DiscoveryInterfaceWithContext
	legacy CachedDiscoveryInterface
}

func (a *cachedDiscoveryAdapter) FreshWithContext(context.Context) bool { return a.legacy.Fresh() }

func (a *cachedDiscoveryAdapter) InvalidateWithContext(context.Context) { a.legacy.Invalidate() }

// ToServerGroupsInterfaceWithContext adapts a ServerGroupsInterface.
func ToServerGroupsInterfaceWithContext(i ServerGroupsInterface) ServerGroupsInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(ServerGroupsInterfaceWithContext); ok {
		return withCtx
	}
	return serverGroupsAdapter{legacy: i}
}

type serverGroupsAdapter struct{ legacy ServerGroupsInterface }

func (a serverGroupsAdapter) ServerGroupsWithContext(context.Context) (*metav1.APIGroupList, error) {
	return a.legacy.ServerGroups()
}

// ToServerResourcesInterfaceWithContext adapts a ServerResourcesInterface.
func ToServerResourcesInterfaceWithContext(i ServerResourcesInterface) ServerResourcesInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(ServerResourcesInterfaceWithContext); ok {
		return withCtx
	}
	return serverResourcesAdapter{legacy: i}
}

type serverResourcesAdapter struct{ legacy ServerResourcesInterface }

func (a serverResourcesAdapter) ServerResourcesForGroupVersionWithContext(_ context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	return a.legacy.ServerResourcesForGroupVersion(groupVersion)
}

func (a serverResourcesAdapter) ServerGroupsAndResourcesWithContext(context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return a.legacy.ServerGroupsAndResources()
}

func (a serverResourcesAdapter) ServerPreferredResourcesWithContext(context.Context) ([]*metav1.APIResourceList, error) {
	return a.legacy.ServerPreferredResources()
}

func (a serverResourcesAdapter) ServerPreferredNamespacedResourcesWithContext(context.Context) ([]*metav1.APIResourceList, error) {
	return a.legacy.ServerPreferredNamespacedResources()
}

// ToServerVersionInterfaceWithContext adapts a ServerVersionInterface.
func ToServerVersionInterfaceWithContext(i ServerVersionInterface) ServerVersionInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(ServerVersionInterfaceWithContext); ok {
		return withCtx
	}
	return serverVersionAdapter{legacy: i}
}

type serverVersionAdapter struct{ legacy ServerVersionInterface }

func (a serverVersionAdapter) ServerVersionWithContext(context.Context) (*version.Info, error) {
	return a.legacy.ServerVersion()
}

// ToOpenAPISchemaInterfaceWithContext adapts an OpenAPISchemaInterface.
func ToOpenAPISchemaInterfaceWithContext(i OpenAPISchemaInterface) OpenAPISchemaInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(OpenAPISchemaInterfaceWithContext); ok {
		return withCtx
	}
	return openAPISchemaAdapter{legacy: i}
}

type openAPISchemaAdapter struct{ legacy OpenAPISchemaInterface }

func (a openAPISchemaAdapter) OpenAPISchemaWithContext(context.Context) (*openapi_v2.Document, error) {
	return a.legacy.OpenAPISchema()
}

// OpenAPIV3ToSchemaInterfaceWithContext adapts an OpenAPIV3SchemaInterface.
func OpenAPIV3ToSchemaInterfaceWithContext(i OpenAPIV3SchemaInterface) OpenAPIV3SchemaInterfaceWithContext {
	if i == nil {
		return nil
	}
	if withCtx, ok := i.(OpenAPIV3SchemaInterfaceWithContext); ok {
		return withCtx
	}
	return openAPIV3Adapter{legacy: i}
}

type openAPIV3Adapter struct{ legacy OpenAPIV3SchemaInterface }

func (a openAPIV3Adapter) OpenAPIV3WithContext(context.Context) openapi.ClientWithContext {
	return ToOpenAPIClientWithContext(a.legacy.OpenAPIV3())
}

// ToOpenAPIClientWithContext adapts an openapi.Client; it is
// openapi.ToClientWithContext under the name this package exports.
func ToOpenAPIClientWithContext(i openapi.Client) openapi.ClientWithContext {
	return openapi.ToClientWithContext(i)
}
