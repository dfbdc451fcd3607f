package restmapper

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/discovery"
)

// shortcutExpander is a RESTMapper that first expands the short names of
// resources ("deploy", "po") to their full names using discovery.
type shortcutExpander struct {
	RESTMapper meta.RESTMapperWithContext

	discoveryClient discovery.DiscoveryInterfaceWithContext

	// warningHandler, when set, is told about short names that several
	// resources claim.
	warningHandler func(string)
}

var (
	_ meta.ResettableRESTMapper            = shortcutExpander{}
	_ meta.ResettableRESTMapperWithContext = shortcutExpander{}
)

// NewShortcutExpander wraps delegate in a RESTMapper that expands the short
// names discovery reports before mapping. warningHandler, which may be nil,
// is told when a short name matches more than one resource; the resource of
// the group discovered first wins.
//
// Prefer NewShortcutExpanderWithContext.
func NewShortcutExpander(delegate meta.RESTMapper, client discovery.DiscoveryInterface, warningHandler func(string)) meta.RESTMapper {
	return shortcutExpander{
		RESTMapper:      meta.ToRESTMapperWithContext(delegate),
		discoveryClient: discovery.ToDiscoveryInterfaceWithContext(client),
		warningHandler:  warningHandler,
	}
}

// NewShortcutExpanderWithContext is NewShortcutExpander for the
// ...WithContext interfaces.
func NewShortcutExpanderWithContext(delegate meta.RESTMapperWithContext, client discovery.DiscoveryInterfaceWithContext, warningHandler func(string)) meta.RESTMapperWithContext {
	return shortcutExpander{RESTMapper: delegate, discoveryClient: client, warningHandler: warningHandler}
}

// KindFor implements meta.RESTMapper.
func (e shortcutExpander) KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return e.KindForWithContext(context.Background(), resource)
}

// KindForWithContext implements meta.RESTMapperWithContext. On a no-match
// error the expansion is done once more: a delegate that resets its
// discovery data on a miss (DeferredDiscoveryRESTMapper) may by then know a
// new resource whose short name the first expansion could not see.
func (e shortcutExpander) KindForWithContext(ctx context.Context, resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	gvk, err := e.RESTMapper.KindForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
	if meta.IsNoMatchError(err) {
		return e.RESTMapper.KindForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
	}
	return gvk, err
}

// KindsFor implements meta.RESTMapper.
func (e shortcutExpander) KindsFor(resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return e.KindsForWithContext(context.Background(), resource)
}

// KindsForWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) KindsForWithContext(ctx context.Context, resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return e.RESTMapper.KindsForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// ResourcesFor implements meta.RESTMapper.
func (e shortcutExpander) ResourcesFor(resource schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return e.ResourcesForWithContext(context.Background(), resource)
}

// ResourcesForWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) ResourcesForWithContext(ctx context.Context, resource schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return e.RESTMapper.ResourcesForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// ResourceFor implements meta.RESTMapper.
func (e shortcutExpander) ResourceFor(resource schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return e.ResourceForWithContext(context.Background(), resource)
}

// ResourceForWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) ResourceForWithContext(ctx context.Context, resource schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return e.RESTMapper.ResourceForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// ResourceSingularizer implements meta.RESTMapper.
func (e shortcutExpander) ResourceSingularizer(resource string) (string, error) {
	return e.ResourceSingularizerWithContext(context.Background(), resource)
}

// ResourceSingularizerWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) ResourceSingularizerWithContext(ctx context.Context, resource string) (string, error) {
	expanded := e.expandResourceShortcut(ctx, schema.GroupVersionResource{Resource: resource})
	return e.RESTMapper.ResourceSingularizerWithContext(ctx, expanded.Resource)
}

// RESTMapping implements meta.RESTMapper.
func (e shortcutExpander) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return e.RESTMappingWithContext(context.Background(), gk, versions...)
}

// RESTMappingWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) RESTMappingWithContext(ctx context.Context, gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return e.RESTMapper.RESTMappingWithContext(ctx, gk, versions...)
}

// RESTMappings implements meta.RESTMapper.
func (e shortcutExpander) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return e.RESTMappingsWithContext(context.Background(), gk, versions...)
}

// RESTMappingsWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) RESTMappingsWithContext(ctx context.Context, gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return e.RESTMapper.RESTMappingsWithContext(ctx, gk, versions...)
}

// Reset resets the delegate if it is resettable.
func (e shortcutExpander) Reset() {
	e.ResetWithContext(context.Background())
}

// ResetWithContext resets the delegate if it is resettable.
func (e shortcutExpander) ResetWithContext(ctx context.Context) {
	meta.MaybeResetRESTMapperWithContext(ctx, e.RESTMapper)
}

// resourceShortcut ties a short name to the resource it stands for.
type resourceShortcut struct {
	ShortForm schema.GroupResource
	LongForm  schema.GroupResource
}

// shortcuts returns the discovered resource lists and the short names they
// declare, in discovery (that is, group priority) order. Partial discovery
// failures are logged and the resources found are used.
func (e shortcutExpander) shortcuts(ctx context.Context) ([]*metav1.APIResourceList, []resourceShortcut) {
	if e.discoveryClient == nil {
		return nil, nil // nothing to expand with
	}
	_, lists, err := e.discoveryClient.ServerGroupsAndResourcesWithContext(ctx)
	if err != nil {
		klog.FromContext(ctx).V(1).Info("Error loading discovery information", "err", err)
	}
	var shortcuts []resourceShortcut
	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			klog.FromContext(ctx).V(1).Info("Unable to parse group/version", "groupVersion", list.GroupVersion, "err", err)
			continue
		}
		for _, r := range list.APIResources {
			for _, short := range r.ShortNames {
				shortcuts = append(shortcuts, resourceShortcut{
					ShortForm: schema.GroupResource{Group: gv.Group, Resource: short},
					LongForm:  schema.GroupResource{Group: gv.Group, Resource: r.Name},
				})
			}
		}
	}
	return lists, shortcuts
}

// expandResourceShortcut returns resource with its short name replaced by
// the full name (and group) it stands for. A full plural or singular name
// is never expanded. When no short name matches exactly and a group is
// given, the group may be a prefix of the short name's group ("autoscal"
// matches "autoscaling"). Otherwise resource is returned unchanged. An
// expanded resource carries no version.
func (e shortcutExpander) expandResourceShortcut(ctx context.Context, resource schema.GroupVersionResource) schema.GroupVersionResource {
	lists, shortcuts := e.shortcuts(ctx)

	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		if resource.Group != "" && resource.Group != gv.Group {
			continue
		}
		for _, r := range list.APIResources {
			if resource.Resource == r.Name || resource.Resource == r.SingularName {
				return resource
			}
		}
	}

	var (
		expanded schema.GroupVersionResource
		found    bool
		warned   = map[schema.GroupResource]bool{}
	)
	for _, s := range shortcuts {
		if resource.Group != "" && resource.Group != s.ShortForm.Group {
			continue
		}
		if resource.Resource != s.ShortForm.Resource {
			continue
		}
		if !found {
			expanded = schema.GroupVersionResource{Group: s.LongForm.Group, Resource: s.LongForm.Resource}
			found = true
			continue
		}
		// Several versions of one resource declaring the same short name
		// are not ambiguous.
		if s.LongForm.Group == expanded.Group && s.LongForm.Resource == expanded.Resource {
			continue
		}
		if !warned[s.LongForm] {
			if e.warningHandler != nil {
				e.warningHandler(fmt.Sprintf("short name %q could also match lower priority resource %s", resource.Resource, s.LongForm.String()))
			}
			warned[s.LongForm] = true
		}
	}
	if found {
		return expanded
	}

	if resource.Group == "" {
		return resource
	}
	for _, s := range shortcuts {
		if strings.HasPrefix(s.ShortForm.Group, resource.Group) && resource.Resource == s.ShortForm.Resource {
			resource.Resource = s.LongForm.Resource
			resource.Group = s.LongForm.Group
			return resource
		}
	}
	return resource
}
