package discovery

import (
	"context"
	"encoding/json"
	"fmt"

	apidiscovery "k8s.io/api/apidiscovery/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupsAndMaybeResources returns the server's groups, the core group first.
// When both /api and /apis answered in the aggregated format it also returns
// the resources of every group-version; otherwise resources is nil and the
// caller must ask for each group-version. failedGVs lists the group-versions
// aggregated discovery marked stale; it is nil only when err is not.
//
// Prefer GroupsAndMaybeResourcesWithContext.
func (d *DiscoveryClient) GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	return d.GroupsAndMaybeResourcesWithContext(context.Background())
}

// ServerGroups returns the server's groups with their versions and preferred
// version.
//
// Prefer ServerGroupsWithContext.
func (d *DiscoveryClient) ServerGroups() (*metav1.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerGroupsWithContext returns the server's groups with their versions
// and preferred version.
func (d *DiscoveryClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	groups, _, _, err := d.GroupsAndMaybeResourcesWithContext(ctx)
	if err != nil {
		groups = nil
	}
	return groups, err
}

// GroupsAndMaybeResourcesWithContext is GroupsAndMaybeResources with a
// context.
func (d *DiscoveryClient) GroupsAndMaybeResourcesWithContext(ctx context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	core, err := d.fetchGroups(ctx, "/api")
	if err != nil {
		return nil, nil, nil, err
	}
	named, err := d.fetchGroups(ctx, "/apis")
	if err != nil {
		return nil, nil, nil, err
	}

	groups := core.groups
	groups.Groups = append(groups.Groups, named.groups.Groups...)

	// Resources are only trustworthy when both endpoints supplied them.
	var resources map[schema.GroupVersion]*metav1.APIResourceList
	if core.resources != nil && named.resources != nil {
		resources = core.resources
		for gv, list := range named.resources {
			resources[gv] = list
		}
	}
	failed := core.failed
	for gv, err := range named.failed {
		failed[gv] = err
	}
	return groups, resources, failed, nil
}

// groupsResponse is what one of /api and /apis told us.
type groupsResponse struct {
	groups *metav1.APIGroupList
	// resources is nil unless the response was aggregated.
	resources map[schema.GroupVersion]*metav1.APIResourceList
	// failed is never nil.
	failed map[schema.GroupVersion]error
}

// fetchGroups downloads /api or /apis in whichever format the server picks.
// A 404 from /api is tolerated (aggregated API servers need not serve the
// core group) and yields no groups and an empty, non-nil resource map.
func (d *DiscoveryClient) fetchGroups(ctx context.Context, path string) (groupsResponse, error) {
	var contentType string
	body, err := d.restClient.Get().
		AbsPath(path).
		SetHeader("Accept", d.acceptHeader()).
		Do(ctx).
		ContentType(&contentType).
		Raw()
	if err != nil {
		if path == "/api" && apierrors.IsNotFound(err) {
			return groupsResponse{
				groups:    &metav1.APIGroupList{},
				resources: map[schema.GroupVersion]*metav1.APIResourceList{},
				failed:    map[schema.GroupVersion]error{},
			}, nil
		}
		return groupsResponse{}, err
	}

	if aggregated, _ := ContentTypeIsGVK(contentType, aggregatedListGVK); aggregated {
		var list apidiscovery.APIGroupDiscoveryList
		if err := json.Unmarshal(body, &list); err != nil {
			return groupsResponse{}, fmt.Errorf("decoding aggregated discovery from %s: %w", path, err)
		}
		groups, resources, failed := SplitGroupsAndResources(list)
		return groupsResponse{groups: groups, resources: resources, failed: failed}, nil
	}

	resp := groupsResponse{groups: &metav1.APIGroupList{}, failed: map[schema.GroupVersion]error{}}
	if path == "/api" {
		// The legacy /api document lists the core group's versions only.
		var versions metav1.APIVersions
		if err := json.Unmarshal(body, &versions); err != nil {
			return groupsResponse{}, fmt.Errorf("decoding APIVersions from %s: %w", path, err)
		}
		resp.groups.Groups = []metav1.APIGroup{coreGroup(versions.Versions)}
		return resp, nil
	}
	if err := json.Unmarshal(body, resp.groups); err != nil {
		return groupsResponse{}, fmt.Errorf("decoding APIGroupList from %s: %w", path, err)
	}
	return resp, nil
}

// coreGroup describes the core group serving versions, preferring the first.
// With no versions it is the zero group.
func coreGroup(versions []string) metav1.APIGroup {
	var g metav1.APIGroup
	for _, v := range versions {
		g.Versions = append(g.Versions, metav1.GroupVersionForDiscovery{GroupVersion: v, Version: v})
	}
	if len(g.Versions) > 0 {
		g.PreferredVersion = g.Versions[0]
	}
	return g
}

// acceptHeader is the Accept header of the /api and /apis requests.
func (d *DiscoveryClient) acceptHeader() string {
	switch {
	case d.UseLegacyDiscovery:
		return AcceptV1
	case d.NoPeerDiscovery:
		return AcceptV2NoPeer + "," + acceptAggregatedOrLegacy
	default:
		return acceptAggregatedOrLegacy
	}
}

// ServerResourcesForGroupVersion returns the resources of groupVersion
// ("v1" for the core group, "group/version" otherwise) using legacy
// discovery.
//
// Prefer ServerResourcesForGroupVersionWithContext.
func (d *DiscoveryClient) ServerResourcesForGroupVersion(groupVersion string) (resources *metav1.APIResourceList, err error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerResourcesForGroupVersionWithContext returns the resources of
// groupVersion using legacy discovery. A core "v1" that the server does not
// serve (404) yields an empty list rather than an error.
func (d *DiscoveryClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (resources *metav1.APIResourceList, err error) {
	if groupVersion == "" {
		return nil, fmt.Errorf("groupVersion shouldn't be empty")
	}
	path := "/apis/" + groupVersion
	if d.LegacyPrefix != "" && groupVersion == "v1" {
		path = d.LegacyPrefix + "/" + groupVersion
	}
	list := &metav1.APIResourceList{GroupVersion: groupVersion}
	if err := d.restClient.Get().AbsPath(path).Do(ctx).Into(list); err != nil {
		if groupVersion == "v1" && apierrors.IsNotFound(err) {
			return list, nil
		}
		return nil, err
	}
	return list, nil
}
