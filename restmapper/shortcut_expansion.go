package restmapper

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

// resourceShortcut ties a short name to the resource it stands for.
type resourceShortcut struct {
	ShortForm schema.GroupResource
	LongForm  schema.GroupResource
}

// discoveredNames are the resource names discovery reports, in discovery
// (that is, group priority) order.
type discoveredNames struct {
	// full holds every plural and singular name with its group.
	full []schema.GroupResource
	// shortcuts holds every short name.
	shortcuts []resourceShortcut
}

// discoverNames asks discovery for the resource names. Partial discovery
// failures are logged and the resources found are used.
func (e shortcutExpander) discoverNames(ctx context.Context) discoveredNames {
	var names discoveredNames
	if e.discoveryClient == nil {
		return names // nothing to expand with
	}
	logger := klog.FromContext(ctx)
	_, lists, err := e.discoveryClient.ServerGroupsAndResourcesWithContext(ctx)
	if err != nil {
		logger.V(1).Info("Error loading discovery information", "err", err)
	}
	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			logger.V(1).Info("Unable to parse group/version", "groupVersion", list.GroupVersion, "err", err)
			continue
		}
		for _, r := range list.APIResources {
			names.full = append(names.full,
				schema.GroupResource{Group: gv.Group, Resource: r.Name},
				schema.GroupResource{Group: gv.Group, Resource: r.SingularName})
			for _, short := range r.ShortNames {
				names.shortcuts = append(names.shortcuts, resourceShortcut{
					ShortForm: schema.GroupResource{Group: gv.Group, Resource: short},
					LongForm:  schema.GroupResource{Group: gv.Group, Resource: r.Name},
				})
			}
		}
	}
	return names
}

// inGroup reports whether name belongs to group, where "" means any group.
func inGroup(group string, name schema.GroupResource) bool {
	return group == "" || group == name.Group
}

// expandResourceShortcut returns resource with its short name replaced by
// the full name (and group) it stands for. A full plural or singular name
// is never expanded. When no short name matches exactly and a group is
// given, the group may be a prefix of the short name's group ("autoscal"
// matches "autoscaling"). Otherwise resource is returned unchanged. An
// expanded resource carries no version.
func (e shortcutExpander) expandResourceShortcut(ctx context.Context, resource schema.GroupVersionResource) schema.GroupVersionResource {
	names := e.discoverNames(ctx)
	if names.isFullName(resource) {
		return resource
	}
	if long, ok := names.exactShortcut(resource, e.warningHandler); ok {
		return long.WithVersion("")
	}
	if long, ok := names.groupPrefixShortcut(resource); ok {
		resource.Group, resource.Resource = long.Group, long.Resource
	}
	return resource
}

func (n discoveredNames) isFullName(resource schema.GroupVersionResource) bool {
	for _, name := range n.full {
		if name.Resource == resource.Resource && inGroup(resource.Group, name) {
			return true
		}
	}
	return false
}

// exactShortcut returns the resource of the first short name equal to
// resource's. Other resources claiming the same short name are reported
// to warn, once each; versions of the chosen resource are not.
func (n discoveredNames) exactShortcut(resource schema.GroupVersionResource, warn func(string)) (schema.GroupResource, bool) {
	var chosen schema.GroupResource
	found := false
	warned := map[schema.GroupResource]bool{}
	for _, s := range n.shortcuts {
		if s.ShortForm.Resource != resource.Resource || !inGroup(resource.Group, s.ShortForm) {
			continue
		}
		switch {
		case !found:
			chosen, found = s.LongForm, true
		case s.LongForm != chosen && !warned[s.LongForm]:
			warned[s.LongForm] = true
			if warn != nil {
				warn(fmt.Sprintf("short name %q could also match lower priority resource %s", resource.Resource, s.LongForm.String()))
			}
		}
	}
	return chosen, found
}

// groupPrefixShortcut returns the resource of the first short name equal
// to resource's whose group starts with resource's (non-empty) group.
func (n discoveredNames) groupPrefixShortcut(resource schema.GroupVersionResource) (schema.GroupResource, bool) {
	if resource.Group == "" {
		return schema.GroupResource{}, false
	}
	for _, s := range n.shortcuts {
		if s.ShortForm.Resource == resource.Resource && strings.HasPrefix(s.ShortForm.Group, resource.Group) {
			return s.LongForm, true
		}
	}
	return schema.GroupResource{}, false
}
