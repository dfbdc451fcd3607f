package restmapper

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/discovery"
)

// DeferredDiscoveryRESTMapper is a RESTMapper built from a cached discovery
// client on first use. When a lookup finds nothing and the client's data was
// not fetched by this client (it is not Fresh), the cache is invalidated,
// the mapper rebuilt and the lookup tried once more, so that resources
// created since the cache was filled (such as new CRDs) are found.
type DeferredDiscoveryRESTMapper struct {
	// initMu guards delegate.
	initMu   sync.Mutex
	delegate meta.RESTMapperWithContext
	cl       discovery.CachedDiscoveryInterfaceWithContext
}

var (
	_ meta.ResettableRESTMapper            = (*DeferredDiscoveryRESTMapper)(nil)
	_ meta.ResettableRESTMapperWithContext = (*DeferredDiscoveryRESTMapper)(nil)
	_ fmt.Stringer                         = (*DeferredDiscoveryRESTMapper)(nil)
)

// NewDeferredDiscoveryRESTMapper returns a DeferredDiscoveryRESTMapper over
// cl.
//
// Prefer NewDeferredDiscoveryRESTMapperWithContext.
func NewDeferredDiscoveryRESTMapper(cl discovery.CachedDiscoveryInterface) *DeferredDiscoveryRESTMapper {
	return &DeferredDiscoveryRESTMapper{cl: discovery.ToCachedDiscoveryInterfaceWithContext(cl)}
}

// NewDeferredDiscoveryRESTMapperWithContext returns a
// DeferredDiscoveryRESTMapper over cl.
func NewDeferredDiscoveryRESTMapperWithContext(cl discovery.CachedDiscoveryInterfaceWithContext) *DeferredDiscoveryRESTMapper {
	return &DeferredDiscoveryRESTMapper{cl: cl}
}

// getDelegate returns the mapper, building it from discovery if needed.
// A failed discovery leaves no mapper, so the next lookup tries again.
func (d *DeferredDiscoveryRESTMapper) getDelegate(ctx context.Context) (meta.RESTMapperWithContext, error) {
	d.initMu.Lock()
	defer d.initMu.Unlock()
	if d.delegate == nil {
		mapper, err := d.discoverMapper(ctx)
		if err != nil {
			return nil, err
		}
		d.delegate = mapper
	}
	return d.delegate, nil
}

// discoverMapper builds a mapper from what discovery reports now.
func (d *DeferredDiscoveryRESTMapper) discoverMapper(ctx context.Context) (meta.RESTMapperWithContext, error) {
	if d.cl == nil {
		return nil, errors.New("DeferredDiscoveryRESTMapper has no discovery client")
	}
	groupResources, err := GetAPIGroupResourcesWithContext(ctx, d.cl)
	if err != nil {
		return nil, err
	}
	return NewDiscoveryRESTMapperWithContext(groupResources), nil
}

// Reset invalidates the discovery client and drops the mapper; the next
// lookup discovers again.
//
// Prefer ResetWithContext.
func (d *DeferredDiscoveryRESTMapper) Reset() {
	d.ResetWithContext(context.Background())
}

// ResetWithContext invalidates the discovery client and drops the mapper;
// the next lookup discovers again.
func (d *DeferredDiscoveryRESTMapper) ResetWithContext(ctx context.Context) {
	klog.FromContext(ctx).V(5).Info("Invalidating discovery information")
	d.initMu.Lock()
	defer d.initMu.Unlock()
	d.delegate = nil
	if d.cl == nil {
		return
	}
	d.cl.InvalidateWithContext(ctx)
}

// withRetry runs lookup against the mapper; when missed reports that the
// result found nothing and the discovery data may be stale, it resets and
// runs lookup again (which repeats as long as the data stays stale).
func withRetry[T any](ctx context.Context, d *DeferredDiscoveryRESTMapper, lookup func(meta.RESTMapperWithContext) (T, error), missed func(T, error) bool) (T, error) {
	delegate, err := d.getDelegate(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	result, err := lookup(delegate)
	if missed(result, err) && d.cl != nil && !d.cl.FreshWithContext(ctx) {
		d.ResetWithContext(ctx)
		return withRetry(ctx, d, lookup, missed)
	}
	return result, err
}

// failed treats any error as a miss.
func failed[T any](_ T, err error) bool { return err != nil }

// empty treats an empty result as a miss.
func empty[T any](result []T, _ error) bool { return len(result) == 0 }

// KindFor returns the single kind resource maps to.
//
// Prefer KindForWithContext.
func (d *DeferredDiscoveryRESTMapper) KindFor(resource schema.GroupVersionResource) (gvk schema.GroupVersionKind, err error) {
	return d.KindForWithContext(context.Background(), resource)
}

// KindForWithContext returns the single kind resource maps to.
func (d *DeferredDiscoveryRESTMapper) KindForWithContext(ctx context.Context, resource schema.GroupVersionResource) (gvk schema.GroupVersionKind, err error) {
	return withRetry(ctx, d, func(m meta.RESTMapperWithContext) (schema.GroupVersionKind, error) {
		return m.KindForWithContext(ctx, resource)
	}, failed[schema.GroupVersionKind])
}

// KindsFor returns the kinds resource may map to, most preferred first.
//
// Prefer KindsForWithContext.
func (d *DeferredDiscoveryRESTMapper) KindsFor(resource schema.GroupVersionResource) (gvks []schema.GroupVersionKind, err error) {
	return d.KindsForWithContext(context.Background(), resource)
}

// KindsForWithContext returns the kinds resource may map to, most preferred
// first.
func (d *DeferredDiscoveryRESTMapper) KindsForWithContext(ctx context.Context, resource schema.GroupVersionResource) (gvks []schema.GroupVersionKind, err error) {
	return withRetry(ctx, d, func(m meta.RESTMapperWithContext) ([]schema.GroupVersionKind, error) {
		return m.KindsForWithContext(ctx, resource)
	}, empty[schema.GroupVersionKind])
}

// ResourceFor returns the single resource input maps to.
//
// Prefer ResourceForWithContext.
func (d *DeferredDiscoveryRESTMapper) ResourceFor(input schema.GroupVersionResource) (gvr schema.GroupVersionResource, err error) {
	return d.ResourceForWithContext(context.Background(), input)
}

// ResourceForWithContext returns the single resource input maps to.
func (d *DeferredDiscoveryRESTMapper) ResourceForWithContext(ctx context.Context, input schema.GroupVersionResource) (gvr schema.GroupVersionResource, err error) {
	return withRetry(ctx, d, func(m meta.RESTMapperWithContext) (schema.GroupVersionResource, error) {
		return m.ResourceForWithContext(ctx, input)
	}, failed[schema.GroupVersionResource])
}

// ResourcesFor returns the resources input may map to, most preferred
// first.
//
// Prefer ResourcesForWithContext.
func (d *DeferredDiscoveryRESTMapper) ResourcesFor(input schema.GroupVersionResource) (gvrs []schema.GroupVersionResource, err error) {
	return d.ResourcesForWithContext(context.Background(), input)
}

// ResourcesForWithContext returns the resources input may map to, most
// preferred first.
func (d *DeferredDiscoveryRESTMapper) ResourcesForWithContext(ctx context.Context, input schema.GroupVersionResource) (gvrs []schema.GroupVersionResource, err error) {
	return withRetry(ctx, d, func(m meta.RESTMapperWithContext) ([]schema.GroupVersionResource, error) {
		return m.ResourcesForWithContext(ctx, input)
	}, empty[schema.GroupVersionResource])
}

// RESTMapping returns the preferred mapping of gk, restricted to versions
// when any are given.
//
// Prefer RESTMappingWithContext.
func (d *DeferredDiscoveryRESTMapper) RESTMapping(gk schema.GroupKind, versions ...string) (m *meta.RESTMapping, err error) {
	return d.RESTMappingWithContext(context.Background(), gk, versions...)
}

// RESTMappingWithContext returns the preferred mapping of gk, restricted to
// versions when any are given.
func (d *DeferredDiscoveryRESTMapper) RESTMappingWithContext(ctx context.Context, gk schema.GroupKind, versions ...string) (m *meta.RESTMapping, err error) {
	return withRetry(ctx, d, func(mapper meta.RESTMapperWithContext) (*meta.RESTMapping, error) {
		return mapper.RESTMappingWithContext(ctx, gk, versions...)
	}, failed[*meta.RESTMapping])
}

// RESTMappings returns the mappings of gk, most preferred first, or a
// NoResourceMatchError.
//
// Prefer RESTMappingsWithContext.
func (d *DeferredDiscoveryRESTMapper) RESTMappings(gk schema.GroupKind, versions ...string) (ms []*meta.RESTMapping, err error) {
	return d.RESTMappingsWithContext(context.Background(), gk, versions...)
}

// RESTMappingsWithContext returns the mappings of gk, most preferred first,
// or a NoResourceMatchError.
func (d *DeferredDiscoveryRESTMapper) RESTMappingsWithContext(ctx context.Context, gk schema.GroupKind, versions ...string) (ms []*meta.RESTMapping, err error) {
	return withRetry(ctx, d, func(mapper meta.RESTMapperWithContext) ([]*meta.RESTMapping, error) {
		return mapper.RESTMappingsWithContext(ctx, gk, versions...)
	}, empty[*meta.RESTMapping])
}

// ResourceSingularizer returns the singular name of resource, such as "pod"
// for "pods".
//
// Prefer ResourceSingularizerWithContext.
func (d *DeferredDiscoveryRESTMapper) ResourceSingularizer(resource string) (singular string, err error) {
	return d.ResourceSingularizerWithContext(context.Background(), resource)
}

// ResourceSingularizerWithContext returns the singular name of resource.
func (d *DeferredDiscoveryRESTMapper) ResourceSingularizerWithContext(ctx context.Context, resource string) (singular string, err error) {
	return withRetry(ctx, d, func(m meta.RESTMapperWithContext) (string, error) {
		return m.ResourceSingularizerWithContext(ctx, resource)
	}, failed[string])
}

// String describes the mapper, building it if needed.
func (d *DeferredDiscoveryRESTMapper) String() string {
	delegate, err := d.getDelegate(context.Background())
	if err != nil {
		return fmt.Sprintf("DeferredDiscoveryRESTMapper{%v}", err)
	}
	return fmt.Sprintf("DeferredDiscoveryRESTMapper{\n\t%v\n}", delegate)
}
