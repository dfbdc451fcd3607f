package restmapper

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

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

// The mapping methods expand the resource, then ask the delegate. GroupKind
// arguments have no short forms and pass through.

// KindForWithContext implements meta.RESTMapperWithContext. On a no-match
// error the expansion is done once more: a delegate that resets its
// discovery data on a miss (DeferredDiscoveryRESTMapper) may by then know a
// new resource whose short name the first expansion could not see.
func (e shortcutExpander) KindForWithContext(ctx context.Context, resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	gvk, err := e.RESTMapper.KindForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
	if !meta.IsNoMatchError(err) {
		return gvk, err
	}
	return e.RESTMapper.KindForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// KindsForWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) KindsForWithContext(ctx context.Context, resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return e.RESTMapper.KindsForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// ResourceForWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) ResourceForWithContext(ctx context.Context, resource schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return e.RESTMapper.ResourceForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// ResourcesForWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) ResourcesForWithContext(ctx context.Context, resource schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return e.RESTMapper.ResourcesForWithContext(ctx, e.expandResourceShortcut(ctx, resource))
}

// ResourceSingularizerWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) ResourceSingularizerWithContext(ctx context.Context, resource string) (string, error) {
	expanded := e.expandResourceShortcut(ctx, schema.GroupVersionResource{Resource: resource})
	return e.RESTMapper.ResourceSingularizerWithContext(ctx, expanded.Resource)
}

// RESTMappingWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) RESTMappingWithContext(ctx context.Context, gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return e.RESTMapper.RESTMappingWithContext(ctx, gk, versions...)
}

// RESTMappingsWithContext implements meta.RESTMapperWithContext.
func (e shortcutExpander) RESTMappingsWithContext(ctx context.Context, gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return e.RESTMapper.RESTMappingsWithContext(ctx, gk, versions...)
}

// ResetWithContext resets the delegate if it is resettable.
func (e shortcutExpander) ResetWithContext(ctx context.Context) {
	meta.MaybeResetRESTMapperWithContext(ctx, e.RESTMapper)
}

// The meta.RESTMapper methods are the ...WithContext ones with a
// background context.

// KindFor implements meta.RESTMapper.
func (e shortcutExpander) KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return e.KindForWithContext(context.Background(), resource)
}

// KindsFor implements meta.RESTMapper.
func (e shortcutExpander) KindsFor(resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return e.KindsForWithContext(context.Background(), resource)
}

// ResourceFor implements meta.RESTMapper.
func (e shortcutExpander) ResourceFor(resource schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return e.ResourceForWithContext(context.Background(), resource)
}

// ResourcesFor implements meta.RESTMapper.
func (e shortcutExpander) ResourcesFor(resource schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return e.ResourcesForWithContext(context.Background(), resource)
}

// ResourceSingularizer implements meta.RESTMapper.
func (e shortcutExpander) ResourceSingularizer(resource string) (string, error) {
	return e.ResourceSingularizerWithContext(context.Background(), resource)
}

// RESTMapping implements meta.RESTMapper.
func (e shortcutExpander) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return e.RESTMappingWithContext(context.Background(), gk, versions...)
}

// RESTMappings implements meta.RESTMapper.
func (e shortcutExpander) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return e.RESTMappingsWithContext(context.Background(), gk, versions...)
}

// Reset resets the delegate if it is resettable.
func (e shortcutExpander) Reset() {
	e.ResetWithContext(context.Background())
}
