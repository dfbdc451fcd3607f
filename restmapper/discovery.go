package restmapper

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
)

// APIGroupResources is one API group together with the resources of each of
// its versions.
type APIGroupResources struct {
	Group metav1.APIGroup
	// VersionedResources maps a version, such as "v1", to the resources
	// the group serves in it.
	VersionedResources map[string][]metav1.APIResource
}

// NewDiscoveryRESTMapper returns a PriorityRESTMapper over groupResources.
// Ambiguities are settled in this order: the core v1 group, then each
// group's preferred version in the order the groups are given, then their
// other versions in discovery order, then anything else of the groups.
//
// Prefer NewDiscoveryRESTMapperWithContext.
func NewDiscoveryRESTMapper(groupResources []*APIGroupResources) meta.RESTMapper {
	plan := planDiscoveryRESTMapper(groupResources)
	delegate := make(meta.MultiRESTMapper, 0, len(plan.mappers))
	for _, m := range plan.mappers {
		delegate = append(delegate, m)
	}
	return &meta.PriorityRESTMapper{
		Delegate:         delegate,
		ResourcePriority: plan.resourcePriority,
		KindPriority:     plan.kindPriority,
	}
}

// NewDiscoveryRESTMapperWithContext is NewDiscoveryRESTMapper returning a
// meta.RESTMapperWithContext.
func NewDiscoveryRESTMapperWithContext(groupResources []*APIGroupResources) meta.RESTMapperWithContext {
	plan := planDiscoveryRESTMapper(groupResources)
	delegate := make(meta.MultiRESTMapperWithContext, 0, len(plan.mappers))
	for _, m := range plan.mappers {
		delegate = append(delegate, m)
	}
	return &meta.PriorityRESTMapperWithContext{
		Delegate:         delegate,
		ResourcePriority: plan.resourcePriority,
		KindPriority:     plan.kindPriority,
	}
}

// discoveryRESTMapperPlan is what both RESTMapper flavours are built from:
// one DefaultRESTMapper per group-version, and the priorities.
type discoveryRESTMapperPlan struct {
	mappers          []*meta.DefaultRESTMapper
	resourcePriority []schema.GroupVersionResource
	kindPriority     []schema.GroupVersionKind
}

func (p *discoveryRESTMapperPlan) prefer(gv schema.GroupVersion) {
	p.resourcePriority = append(p.resourcePriority, gv.WithResource(meta.AnyResource))
	p.kindPriority = append(p.kindPriority, gv.WithKind(meta.AnyKind))
}

func planDiscoveryRESTMapper(groupResources []*APIGroupResources) discoveryRESTMapperPlan {
	var plan discoveryRESTMapperPlan
	// The core group wins every tie.
	plan.prefer(schema.GroupVersion{Version: "v1"})

	for _, group := range groupResources {
		preferred := group.Group.PreferredVersion.Version
		if preferred != "" {
			if _, served := group.VersionedResources[preferred]; served {
				plan.prefer(schema.GroupVersion{Group: group.Group.Name, Version: preferred})
			}
		}
		for _, v := range group.Group.Versions {
			resources, served := group.VersionedResources[v.Version]
			if !served {
				continue
			}
			gv := schema.GroupVersion{Group: group.Group.Name, Version: v.Version}
			if v.Version != preferred {
				// Resources only some other version has still resolve.
				plan.prefer(gv)
			}
			plan.mappers = append(plan.mappers, versionMapper(gv, resources))
		}
	}

	// Last, any version of the groups, in the order given.
	for _, group := range groupResources {
		plan.prefer(schema.GroupVersion{Group: group.Group.Name, Version: meta.AnyVersion})
	}
	return plan
}

// versionMapper maps the kinds and resources of one group-version.
// Subresources are left out.
func versionMapper(gv schema.GroupVersion, resources []metav1.APIResource) *meta.DefaultRESTMapper {
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{gv})
	for _, r := range resources {
		if strings.Contains(r.Name, "/") {
			continue
		}
		scope := meta.RESTScopeRoot
		if r.Namespaced {
			scope = meta.RESTScopeNamespace
		}
		plural := gv.WithResource(r.Name)
		singular := gv.WithResource(r.SingularName)
		if r.SingularName == "" {
			// Old servers do not list singular names; guess from the kind.
			_, singular = meta.UnsafeGuessKindToResource(gv.WithKind(r.Kind))
		}
		mapper.AddSpecific(gv.WithKind(strings.ToLower(r.Kind)), plural, singular, scope)
		mapper.AddSpecific(gv.WithKind(r.Kind), plural, singular, scope)
		mapper.Add(gv.WithKind(r.Kind+"List"), scope)
	}
	mapper.Add(gv.WithKind("List"), meta.RESTScopeRoot)
	return mapper
}

// GetAPIGroupResources gathers the groups and resources cl discovers.
//
// Prefer GetAPIGroupResourcesWithContext.
func GetAPIGroupResources(cl discovery.DiscoveryInterface) ([]*APIGroupResources, error) {
	return GetAPIGroupResourcesWithContext(context.Background(), discovery.ToDiscoveryInterfaceWithContext(cl))
}

// GetAPIGroupResourcesWithContext gathers the groups and resources cl
// discovers. Partial discovery failures are tolerated: the group-versions
// that could be discovered are returned without an error. The error is
// returned only when no groups or resources could be obtained at all.
func GetAPIGroupResourcesWithContext(ctx context.Context, cl discovery.DiscoveryInterfaceWithContext) ([]*APIGroupResources, error) {
	groups, lists, err := cl.ServerGroupsAndResourcesWithContext(ctx)
	if groups == nil || lists == nil {
		return nil, err
	}
	byGroupVersion := make(map[string]*metav1.APIResourceList, len(lists))
	for _, list := range lists {
		byGroupVersion[list.GroupVersion] = list
	}
	var result []*APIGroupResources
	for _, group := range groups {
		gr := &APIGroupResources{
			Group:              *group,
			VersionedResources: map[string][]metav1.APIResource{},
		}
		for _, v := range group.Versions {
			if list, ok := byGroupVersion[v.GroupVersion]; ok {
				gr.VersionedResources[v.Version] = list.APIResources
			}
		}
		result = append(result, gr)
	}
	return result, nil
}
