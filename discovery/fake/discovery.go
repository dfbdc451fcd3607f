package fake

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/openapi"
	kubeversion "github.com/kubeclient/client-go/pkg/version"
	restclient "github.com/kubeclient/client-go/rest"
	"github.com/kubeclient/client-go/testing"
)

// FakeDiscovery answers discovery calls from the resource lists in the
// embedded Fake's Resources field. Most calls record a "get" action through
// Fake.Invokes so that reactors can inject errors; objects returned by
// reactors are ignored. Set FakedServerVersion to control ServerVersion.
type FakeDiscovery struct {
	*testing.Fake
	// FakedServerVersion is what ServerVersion returns; when nil it returns
	// the version of this library.
	FakedServerVersion *version.Info
}

// invoke records a get of the pseudo resource and returns a reactor's error.
func (c *FakeDiscovery) invoke(resource string) error {
	_, err := c.Invokes(testing.ActionImpl{
		Verb:     "get",
		Resource: schema.GroupVersionResource{Resource: resource},
	}, nil)
	return err
}

// ServerResourcesForGroupVersionWithContext returns the list in Resources
// whose GroupVersion is groupVersion, or a NotFound status error.
func (c *FakeDiscovery) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	if err := c.invoke("resource"); err != nil {
		return nil, err
	}
	for _, list := range c.Resources {
		if list.GroupVersion == groupVersion {
			return list, nil
		}
	}
	return nil, &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusNotFound,
		Reason:  metav1.StatusReasonNotFound,
		Message: fmt.Sprintf("the server could not find the requested resource, GroupVersion %q not found", groupVersion),
	}}
}

// ServerGroupsAndResourcesWithContext returns the groups derived from
// Resources and Resources itself. A reactor error is returned together with
// both.
func (c *FakeDiscovery) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	groups, err := c.ServerGroupsWithContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	groupPtrs := make([]*metav1.APIGroup, 0, len(groups.Groups))
	for i := range groups.Groups {
		groupPtrs = append(groupPtrs, &groups.Groups[i])
	}
	return groupPtrs, c.Resources, c.invoke("resource")
}

// ServerPreferredResourcesWithContext returns nothing.
func (c *FakeDiscovery) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return nil, nil
}

// ServerPreferredNamespacedResourcesWithContext returns nothing.
func (c *FakeDiscovery) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return nil, nil
}

// ServerGroupsWithContext derives the groups from Resources, in the order
// their first group-version appears there; that first group-version is the
// preferred one. A GroupVersion that does not parse is an error.
func (c *FakeDiscovery) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	if err := c.invoke("group"); err != nil {
		return nil, err
	}
	list := &metav1.APIGroupList{}
	index := map[string]int{}
	for _, rl := range c.Resources {
		gv, err := schema.ParseGroupVersion(rl.GroupVersion)
		if err != nil {
			return nil, err
		}
		listed := metav1.GroupVersionForDiscovery{GroupVersion: rl.GroupVersion, Version: gv.Version}
		i, ok := index[gv.Group]
		if !ok {
			i = len(list.Groups)
			index[gv.Group] = i
			list.Groups = append(list.Groups, metav1.APIGroup{Name: gv.Group, PreferredVersion: listed})
		}
		list.Groups[i].Versions = append(list.Groups[i].Versions, listed)
	}
	return list, nil
}

// ServerVersionWithContext returns FakedServerVersion, or this library's
// version.
func (c *FakeDiscovery) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	if err := c.invoke("version"); err != nil {
		return nil, err
	}
	if c.FakedServerVersion != nil {
		return c.FakedServerVersion, nil
	}
	v := kubeversion.Get()
	return &v, nil
}

// OpenAPISchemaWithContext returns an empty document.
func (c *FakeDiscovery) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	return &openapi_v2.Document{}, nil
}

// errNoOpenAPIV3 is what the OpenAPI v3 client of FakeDiscovery reports.
var errNoOpenAPIV3 = errors.New("FakeDiscovery does not serve OpenAPI v3 documents; use openapitest for a fake openapi.Client")

// unservedOpenAPI is an OpenAPI v3 client whose listing always fails.
type unservedOpenAPI struct{}

func (unservedOpenAPI) Paths() (map[string]openapi.GroupVersion, error) { return nil, errNoOpenAPIV3 }

func (unservedOpenAPI) PathsWithContext(context.Context) (map[string]openapi.GroupVersionWithContext, error) {
	return nil, errNoOpenAPIV3
}

// OpenAPIV3WithContext returns a client whose PathsWithContext always fails.
func (c *FakeDiscovery) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return unservedOpenAPI{}
}

// RESTClient returns nil: the fake talks to no server.
func (c *FakeDiscovery) RESTClient() restclient.Interface {
	return nil
}

// WithLegacyWithContext returns c itself: the fake has only one format.
func (c *FakeDiscovery) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return c
}

// FakeDiscovery serves both forms of the discovery interface.
var (
	_ discovery.DiscoveryInterface            = &FakeDiscovery{}
	_ discovery.DiscoveryInterfaceWithContext = &FakeDiscovery{}
)
