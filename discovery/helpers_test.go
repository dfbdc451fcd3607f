package discovery_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	apidiscovery "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
)

func TestContentTypeIsGVK(t *testing.T) {
	gvk := schema.GroupVersionKind{Group: "apidiscovery.k8s.io", Version: "v2", Kind: "APIGroupDiscoveryList"}
	tests := []struct {
		contentType string
		want        bool
		wantErr     bool
	}{
		{contentType: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", want: true},
		{contentType: "application/json; as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io", want: true},
		{contentType: "application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io;charset=utf-8", want: true},
		{contentType: "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList", want: false},
		{contentType: "application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", want: false},
		{contentType: "application/json", want: false},
		{contentType: "application/json; charset=UTF-8", want: false},
		{contentType: "", wantErr: true},
		{contentType: "malformed content type string", wantErr: true},
	}
	for _, tc := range tests {
		got, err := discovery.ContentTypeIsGVK(tc.contentType, gvk)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("ContentTypeIsGVK(%q) = %v, %v; want %v, error %v", tc.contentType, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestErrGroupDiscoveryFailed(t *testing.T) {
	err := &discovery.ErrGroupDiscoveryFailed{Groups: map[schema.GroupVersion]error{
		{Group: "metrics.k8s.io", Version: "v1beta1"}: errors.New("503"),
		{Group: "apps", Version: "v1"}:                errors.New("timeout"),
	}}
	want := "unable to retrieve the complete list of server APIs: apps/v1: timeout, metrics.k8s.io/v1beta1: 503"
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	wrapped := fmt.Errorf("listing: %w", err)
	if !errors.Is(wrapped, &discovery.ErrGroupDiscoveryFailed{}) {
		t.Errorf("errors.Is through a wrapper = false")
	}
	if discovery.IsGroupDiscoveryFailedError(wrapped) {
		t.Errorf("IsGroupDiscoveryFailedError must only accept the error itself")
	}
	if !discovery.IsGroupDiscoveryFailedError(err) || discovery.IsGroupDiscoveryFailedError(nil) || discovery.IsGroupDiscoveryFailedError(errors.New("x")) {
		t.Errorf("IsGroupDiscoveryFailedError misclassifies")
	}
	groups, ok := discovery.GroupDiscoveryFailedErrorGroups(wrapped)
	if !ok || len(groups) != 2 {
		t.Errorf("GroupDiscoveryFailedErrorGroups = %v, %v", groups, ok)
	}
	if groups, ok := discovery.GroupDiscoveryFailedErrorGroups(errors.New("other")); ok || groups != nil {
		t.Errorf("GroupDiscoveryFailedErrorGroups(other) = %v, %v", groups, ok)
	}
}

var sampleLists = []*metav1.APIResourceList{
	{GroupVersion: "v1", APIResources: []metav1.APIResource{
		{Name: "pods", Namespaced: true, Verbs: metav1.Verbs{"get", "list", "watch", "create"}},
		{Name: "nodes", Verbs: metav1.Verbs{"get", "list"}},
	}},
	{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
		{Name: "deployments", Namespaced: true, Verbs: metav1.Verbs{"get", "list", "watch"}},
	}},
	{GroupVersion: "metrics.k8s.io/v1beta1", APIResources: []metav1.APIResource{
		{Name: "nodes", Verbs: metav1.Verbs{"get"}},
	}},
}

func TestFilteredBy(t *testing.T) {
	tests := []struct {
		name string
		pred discovery.ResourcePredicate
		want []string
	}{
		{name: "list and watch", pred: discovery.SupportsAllVerbs{Verbs: []string{"list", "watch"}}, want: []string{"v1:pods", "apps/v1:deployments"}},
		{name: "no verbs required", pred: discovery.SupportsAllVerbs{}, want: []string{"v1:pods", "v1:nodes", "apps/v1:deployments", "metrics.k8s.io/v1beta1:nodes"}},
		{name: "unknown verb", pred: discovery.SupportsAllVerbs{Verbs: []string{"proxy"}}, want: nil},
		{name: "by group version", pred: discovery.ResourcePredicateFunc(func(gv string, _ *metav1.APIResource) bool { return gv == "v1" }), want: []string{"v1:pods", "v1:nodes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := discovery.FilteredBy(tc.pred, sampleLists)
			if names := resourceNames(got); !reflect.DeepEqual(names, tc.want) {
				t.Errorf("FilteredBy = %q, want %q", names, tc.want)
			}
			if got == nil {
				t.Errorf("FilteredBy must return an empty, non-nil slice")
			}
		})
	}
	if len(sampleLists[0].APIResources) != 2 {
		t.Errorf("FilteredBy modified its input")
	}
}

func TestGroupVersionResources(t *testing.T) {
	got, err := discovery.GroupVersionResources(sampleLists)
	if err != nil {
		t.Fatal(err)
	}
	want := map[schema.GroupVersionResource]struct{}{
		{Version: "v1", Resource: "pods"}:                                {},
		{Version: "v1", Resource: "nodes"}:                               {},
		{Group: "apps", Version: "v1", Resource: "deployments"}:          {},
		{Group: "metrics.k8s.io", Version: "v1beta1", Resource: "nodes"}: {},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GroupVersionResources = %v", got)
	}
	if _, err := discovery.GroupVersionResources([]*metav1.APIResourceList{{GroupVersion: "a/b/c"}}); err == nil {
		t.Errorf("an unparsable group version must be an error")
	}
}

func TestSplitGroupsAndResourcesSkipsResourcesWithoutKind(t *testing.T) {
	list := apidiscovery.APIGroupDiscoveryList{Items: []apidiscovery.APIGroupDiscovery{{
		ObjectMeta: metav1.ObjectMeta{Name: "example.com"},
		Versions: []apidiscovery.APIVersionDiscovery{
			{Version: "v2", Freshness: apidiscovery.DiscoveryFreshnessStale},
			{Version: "v1", Resources: []apidiscovery.APIResourceDiscovery{
				{Resource: "widgets", Scope: apidiscovery.ScopeNamespace, Verbs: []string{"get"},
					Subresources: []apidiscovery.APISubresourceDiscovery{
						{Subresource: "status", ResponseKind: &metav1.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, Verbs: []string{"get"}},
						{Subresource: "raw", Verbs: []string{"get"}},
					}},
				{Resource: "gadgets", ResponseKind: &metav1.GroupVersionKind{}, Scope: apidiscovery.ScopeCluster},
			}},
		},
	}}}
	groups, resources, failed := discovery.SplitGroupsAndResources(list)
	v1 := metav1.GroupVersionForDiscovery{GroupVersion: "example.com/v1", Version: "v1"}
	wantGroups := &metav1.APIGroupList{Groups: []metav1.APIGroup{{Name: "example.com", Versions: []metav1.GroupVersionForDiscovery{v1}, PreferredVersion: v1}}}
	if !reflect.DeepEqual(groups, wantGroups) {
		t.Errorf("groups = %+v\nwant %+v", groups, wantGroups)
	}
	wantResources := map[schema.GroupVersion]*metav1.APIResourceList{
		{Group: "example.com", Version: "v1"}: {GroupVersion: "example.com/v1", APIResources: []metav1.APIResource{
			{Name: "widgets/status", Namespaced: true, Group: "example.com", Version: "v1", Kind: "Widget", Verbs: metav1.Verbs{"get"}},
		}},
	}
	if !reflect.DeepEqual(resources, wantResources) {
		t.Errorf("resources = %+v", resources[schema.GroupVersion{Group: "example.com", Version: "v1"}])
	}
	stale := schema.GroupVersion{Group: "example.com", Version: "v2"}
	var staleErr discovery.StaleGroupVersionError
	if len(failed) != 1 || !errors.As(failed[stale], &staleErr) {
		t.Errorf("failed = %v, want a StaleGroupVersionError for %v", failed, stale)
	}
}

// cachedOnly implements only the original CachedDiscoveryInterface.
type cachedOnly struct {
	discovery.DiscoveryInterface
	invalidated bool
}

func (c *cachedOnly) Fresh() bool { return !c.invalidated }
func (c *cachedOnly) Invalidate() { c.invalidated = true }

// aggregatedOnly implements only the original AggregatedDiscoveryInterface.
type aggregatedOnly struct {
	discovery.DiscoveryInterface
	calls int
}

func (a *aggregatedOnly) GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	a.calls++
	return &metav1.APIGroupList{Groups: []metav1.APIGroup{{Name: "apps", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "apps/v1", Version: "v1"}}}}},
		map[schema.GroupVersion]*metav1.APIResourceList{{Group: "apps", Version: "v1"}: sampleLists[1]},
		map[schema.GroupVersion]error{}, nil
}

func TestAdapters(t *testing.T) {
	ctx := context.Background()
	if discovery.ToDiscoveryInterfaceWithContext(nil) != nil || discovery.ToCachedDiscoveryInterfaceWithContext(nil) != nil ||
		discovery.ToAggregatedDiscoveryInterfaceWithContext(nil) != nil || discovery.ToServerGroupsInterfaceWithContext(nil) != nil ||
		discovery.ToServerResourcesInterfaceWithContext(nil) != nil || discovery.ToServerVersionInterfaceWithContext(nil) != nil ||
		discovery.ToOpenAPISchemaInterfaceWithContext(nil) != nil || discovery.OpenAPIV3ToSchemaInterfaceWithContext(nil) != nil ||
		discovery.ToOpenAPIClientWithContext(nil) != nil {
		t.Errorf("adapters of nil must return nil")
	}

	client := discovery.NewDiscoveryClient(nil)
	if got := discovery.ToDiscoveryInterfaceWithContext(client); got != discovery.DiscoveryInterfaceWithContext(client) {
		t.Errorf("a DiscoveryClient must be returned unchanged")
	}

	c := &cachedOnly{DiscoveryInterface: legacyOnlyDiscovery{client}}
	cw := discovery.ToCachedDiscoveryInterfaceWithContext(c)
	if !cw.FreshWithContext(ctx) {
		t.Errorf("FreshWithContext = false before invalidation")
	}
	cw.InvalidateWithContext(ctx)
	if !c.invalidated || cw.FreshWithContext(ctx) {
		t.Errorf("InvalidateWithContext did not reach the wrapped client")
	}

	a := &aggregatedOnly{DiscoveryInterface: legacyOnlyDiscovery{client}}
	groups, lists, err := discovery.ServerGroupsAndResourcesWithContext(ctx, discovery.ToDiscoveryInterfaceWithContext(a))
	if err != nil || a.calls != 1 || len(groups) != 1 || len(lists) != 1 {
		t.Errorf("ServerGroupsAndResources over an aggregated-only client = %v, %v, %v (calls %d)", groups, lists, err, a.calls)
	}
	aw := discovery.ToAggregatedDiscoveryInterfaceWithContext(a)
	if _, _, _, err := aw.GroupsAndMaybeResourcesWithContext(ctx); err != nil || a.calls != 2 {
		t.Errorf("GroupsAndMaybeResourcesWithContext did not reach the wrapped client")
	}
}

type emptyGroups struct{ discovery.DiscoveryInterface }

func (emptyGroups) ServerGroups() (*metav1.APIGroupList, error) { return &metav1.APIGroupList{}, nil }

func TestServerSupportsVersionWithoutGroups(t *testing.T) {
	if err := discovery.ServerSupportsVersion(emptyGroups{}, schema.GroupVersion{Group: "apps", Version: "v1"}); err != nil {
		t.Errorf("a server listing no versions is assumed to support any: %v", err)
	}
}
