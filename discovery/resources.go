package discovery

import (
	"context"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// discoveryAttempts is how many times the DiscoveryClient methods below try
// when some group-versions fail, in case the failure was transient.
const discoveryAttempts = 2

// ServerGroupsAndResources returns every group of d and the resources of all
// their versions. Group-versions that fail are reported through
// ErrGroupDiscoveryFailed next to the partial results.
//
// Prefer ServerGroupsAndResourcesWithContext.
func ServerGroupsAndResources(d DiscoveryInterface) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return ServerGroupsAndResourcesWithContext(context.Background(), ToDiscoveryInterfaceWithContext(d))
}

// ServerGroupsAndResourcesWithContext returns every group of d and the
// resources of all their versions. When d supports aggregated discovery and
// the server answered in that format, no further requests are made;
// otherwise every group-version is fetched concurrently. Failed
// group-versions are reported through ErrGroupDiscoveryFailed next to the
// partial results.
func ServerGroupsAndResourcesWithContext(ctx context.Context, d DiscoveryInterfaceWithContext) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	groups, byGV, failed, err := groupsAndMaybeResources(ctx, d)
	if groups == nil {
		return nil, nil, err
	}
	groupPtrs := make([]*metav1.APIGroup, 0, len(groups.Groups))
	for i := range groups.Groups {
		groupPtrs = append(groupPtrs, &groups.Groups[i])
	}

	if byGV == nil {
		byGV, failed = fetchAllGroupVersions(ctx, d, groups)
	}
	// Order the lists like the groups and versions they belong to.
	lists := []*metav1.APIResourceList{}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			if list, ok := byGV[schema.GroupVersion{Group: g.Name, Version: v.Version}]; ok {
				lists = append(lists, list)
			}
		}
	}
	if len(failed) > 0 {
		return groupPtrs, lists, &ErrGroupDiscoveryFailed{Groups: failed}
	}
	return groupPtrs, lists, nil
}

// groupsAndMaybeResources asks d for its groups, and for their resources too
// when d supports aggregated discovery. byGV is nil when the resources still
// have to be fetched.
func groupsAndMaybeResources(ctx context.Context, d DiscoveryInterfaceWithContext) (
	groups *metav1.APIGroupList,
	byGV map[schema.GroupVersion]*metav1.APIResourceList,
	failed map[schema.GroupVersion]error,
	err error) {
	if ad, ok := d.(AggregatedDiscoveryInterfaceWithContext); ok {
		return ad.GroupsAndMaybeResourcesWithContext(ctx)
	}
	if ad, ok := d.(AggregatedDiscoveryInterface); ok {
		return ad.GroupsAndMaybeResources()
	}
	groups, err = d.ServerGroupsWithContext(ctx)
	return groups, nil, nil, err
}

// fetchAllGroupVersions fetches the resources of every version of every
// group concurrently, one goroutine per group-version, and waits for all of
// them. A group-version may appear in both results: some failures still come
// with a list.
func fetchAllGroupVersions(ctx context.Context, d DiscoveryInterfaceWithContext, groups *metav1.APIGroupList) (map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error) {
	var all []schema.GroupVersion
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			all = append(all, schema.GroupVersion{Group: g.Name, Version: v.Version})
		}
	}
	// One goroutine per group-version sends exactly one result (even when
	// the fetch panics and HandleCrash recovers); this goroutine alone
	// writes the maps.
	type fetched struct {
		gv   schema.GroupVersion
		list *metav1.APIResourceList
		err  error
	}
	results := make(chan fetched, len(all))
	for _, gv := range all {
		go func() {
			r := fetched{gv: gv}
			defer func() { results <- r }()
			defer utilruntime.HandleCrashWithContext(ctx)
			r.list, r.err = d.ServerResourcesForGroupVersionWithContext(ctx, gv.String())
		}()
	}
	lists := map[schema.GroupVersion]*metav1.APIResourceList{}
	failed := map[schema.GroupVersion]error{}
	for range all {
		r := <-results
		if r.err != nil {
			failed[r.gv] = r.err
		}
		if r.list != nil { // a failed fetch may still return a fallback list
			lists[r.gv] = r.list
		}
	}
	return lists, failed
}

// ServerPreferredResources returns the resources of d, each in the version
// its group prefers (or, when the preferred version lacks it, the first
// version listing it). Subresources are left out. Failed group-versions are
// reported through ErrGroupDiscoveryFailed next to the partial results.
//
// Prefer ServerPreferredResourcesWithContext.
func ServerPreferredResources(d DiscoveryInterface) ([]*metav1.APIResourceList, error) {
	return ServerPreferredResourcesWithContext(context.Background(), ToDiscoveryInterfaceWithContext(d))
}

// ServerPreferredResourcesWithContext is ServerPreferredResources with a
// context.
func ServerPreferredResourcesWithContext(ctx context.Context, d DiscoveryInterfaceWithContext) ([]*metav1.APIResourceList, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	groups, byGV, failed, err := groupsAndMaybeResources(ctx, d)
	if err != nil {
		return nil, err
	}
	if byGV == nil {
		byGV, failed = fetchAllGroupVersions(ctx, d, groups)
	}

	type choice struct {
		version  string
		resource *metav1.APIResource
	}
	chosen := map[schema.GroupResource]choice{}
	// One (initially empty) list per discovered group-version, in group and
	// version order; chosen resources are filed into them afterwards.
	result := []*metav1.APIResourceList{}
	listOf := map[schema.GroupVersion]*metav1.APIResourceList{}
	// order remembers the first-seen order of resources so that the lists
	// come out deterministic.
	var order []schema.GroupResource

	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gv := schema.GroupVersion{Group: g.Name, Version: v.Version}
			discovered, ok := byGV[gv]
			if !ok {
				continue
			}
			list := &metav1.APIResourceList{GroupVersion: v.GroupVersion}
			listOf[gv] = list
			result = append(result, list)

			for i := range discovered.APIResources {
				r := &discovered.APIResources[i]
				if strings.Contains(r.Name, "/") {
					continue // a subresource
				}
				gr := schema.GroupResource{Group: g.Name, Resource: r.Name}
				if _, seen := chosen[gr]; seen {
					if v.Version != g.PreferredVersion.Version {
						continue
					}
				} else {
					order = append(order, gr)
				}
				chosen[gr] = choice{version: v.Version, resource: r}
			}
		}
	}
	for _, gr := range order {
		c := chosen[gr]
		list := listOf[schema.GroupVersion{Group: gr.Group, Version: c.version}]
		list.APIResources = append(list.APIResources, *c.resource)
	}

	if len(failed) > 0 {
		return result, &ErrGroupDiscoveryFailed{Groups: failed}
	}
	return result, nil
}

// ServerPreferredNamespacedResources is ServerPreferredResources limited to
// namespaced resources.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func ServerPreferredNamespacedResources(d DiscoveryInterface) ([]*metav1.APIResourceList, error) {
	return ServerPreferredNamespacedResourcesWithContext(context.Background(), ToDiscoveryInterfaceWithContext(d))
}

// ServerPreferredNamespacedResourcesWithContext is
// ServerPreferredResourcesWithContext limited to namespaced resources.
func ServerPreferredNamespacedResourcesWithContext(ctx context.Context, d DiscoveryInterfaceWithContext) ([]*metav1.APIResourceList, error) {
	all, err := ServerPreferredResourcesWithContext(ctx, d)
	namespaced := FilteredBy(ResourcePredicateFunc(func(_ string, r *metav1.APIResource) bool {
		return r.Namespaced
	}), all)
	return namespaced, err
}

// ServerGroupsAndResources returns every group and the resources of all their
// versions, retrying once if some group-versions fail.
//
// Prefer ServerGroupsAndResourcesWithContext.
func (d *DiscoveryClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerGroupsAndResourcesWithContext returns every group and the resources
// of all their versions, retrying once if some group-versions fail.
func (d *DiscoveryClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return retryPartialFailures(ctx, func() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
		return ServerGroupsAndResourcesWithContext(ctx, d)
	})
}

// ServerPreferredResources returns each resource in its preferred version,
// retrying once if some group-versions fail.
//
// Prefer ServerPreferredResourcesWithContext.
func (d *DiscoveryClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredResourcesWithContext(context.Background())
}

// ServerPreferredResourcesWithContext returns each resource in its preferred
// version, retrying once if some group-versions fail.
func (d *DiscoveryClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	_, lists, err := retryPartialFailures(ctx, func() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
		lists, err := ServerPreferredResourcesWithContext(ctx, d)
		return nil, lists, err
	})
	return lists, err
}

// ServerPreferredNamespacedResources returns each namespaced resource in its
// preferred version.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func (d *DiscoveryClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return ServerPreferredNamespacedResourcesWithContext(context.Background(), d)
}

// ServerPreferredNamespacedResourcesWithContext returns each namespaced
// resource in its preferred version.
func (d *DiscoveryClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return ServerPreferredNamespacedResourcesWithContext(ctx, d)
}

// retryPartialFailures calls discover up to discoveryAttempts times while it
// reports an ErrGroupDiscoveryFailed, returning the last partial results with
// that error. Any other error is returned at once, without results.
func retryPartialFailures(ctx context.Context, discover func() ([]*metav1.APIGroup, []*metav1.APIResourceList, error)) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	var (
		groups []*metav1.APIGroup
		lists  []*metav1.APIResourceList
		err    error
	)
	for range discoveryAttempts {
		groups, lists, err = discover()
		if err == nil {
			return groups, lists, nil
		}
		if _, partial := err.(*ErrGroupDiscoveryFailed); !partial || ctx.Err() != nil {
			return nil, nil, err
		}
	}
	return groups, lists, err
}
