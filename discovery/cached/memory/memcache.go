package memory

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/openapi"
	cachedopenapi "github.com/kubeclient/client-go/openapi/cached"
	restclient "github.com/kubeclient/client-go/rest"
)

// ErrCacheNotFound is returned by ServerResourcesForGroupVersion for a
// group-version the cached group list does not contain.
var (
	ErrCacheNotFound = errors.New("not found")
)

// errNoDelegate is returned by a client constructed without a delegate.
var errNoDelegate = errors.New("memory-cached discovery client has no delegate discovery client")

// noOpenAPI is the OpenAPI v3 source of a client without a delegate.
type noOpenAPI struct{}

func (noOpenAPI) PathsWithContext(context.Context) (map[string]openapi.GroupVersionWithContext, error) {
	return nil, errNoDelegate
}

// fetchResult is what one group-version's fetch produced.
type fetchResult struct {
	list *metav1.APIResourceList
	err  error
}

// emptyResponseError reports a group-version that listed no resources.
type emptyResponseError struct {
	gv string
}

func (e *emptyResponseError) Error() string {
	return fmt.Sprintf("received empty response for: %s", e.gv)
}

// memCacheClient is the CachedDiscoveryInterface of this package.
type memCacheClient struct {
	delegate discovery.DiscoveryInterfaceWithContext

	// mu guards the fields below. Filling the cache happens with lock held
	// for writing, so that concurrent callers wait for one fetch instead of
	// starting their own.
	mu             sync.RWMutex
	byGroupVersion map[string]*fetchResult
	groups         *metav1.APIGroupList
	filled         bool
	openAPI        *cachedopenapi.Client
	// fromAggregated records that the cache was filled from an
	// aggregated discovery answer, which carries the resources with the
	// groups.
	fromAggregated bool
}

var (
	_ discovery.CachedDiscoveryInterface                = (*memCacheClient)(nil)
	_ discovery.CachedDiscoveryInterfaceWithContext     = (*memCacheClient)(nil)
	_ discovery.AggregatedDiscoveryInterface            = (*memCacheClient)(nil)
	_ discovery.AggregatedDiscoveryInterfaceWithContext = (*memCacheClient)(nil)
)

// NewMemCacheClient returns a CachedDiscoveryInterface that caches what
// delegate discovers in memory. A cache miss is not looked up on the server:
// call Invalidate to have everything fetched again.
//
// Prefer NewMemCacheClientWithContext.
func NewMemCacheClient(delegate discovery.DiscoveryInterface) discovery.CachedDiscoveryInterface {
	return newMemCacheClient(discovery.ToDiscoveryInterfaceWithContext(delegate))
}

// NewMemCacheClientWithContext returns a CachedDiscoveryInterfaceWithContext
// that caches what delegate discovers in memory. A cache miss is not looked
// up on the server: call InvalidateWithContext to have everything fetched
// again.
func NewMemCacheClientWithContext(delegate discovery.DiscoveryInterfaceWithContext) discovery.CachedDiscoveryInterfaceWithContext {
	return newMemCacheClient(delegate)
}

func newMemCacheClient(delegate discovery.DiscoveryInterfaceWithContext) *memCacheClient {
	return &memCacheClient{
		delegate:       delegate,
		byGroupVersion: map[string]*fetchResult{},
	}
}

// isTransientError reports whether fetching again may succeed where err
// failed.
func isTransientError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var errno syscall.Errno
	if errors.As(err, &errno) && (errno == syscall.ECONNREFUSED || errno == syscall.ECONNRESET) {
		return true
	}
	if status, ok := err.(apierrors.APIStatus); ok && status.Status().Code >= 500 {
		return true
	}
	return apierrors.IsTooManyRequests(err)
}

// ServerResourcesForGroupVersion returns the cached resources of
// groupVersion.
//
// Prefer ServerResourcesForGroupVersionWithContext.
func (d *memCacheClient) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerResourcesForGroupVersionWithContext returns the cached resources of
// groupVersion, filling the cache first if needed. It returns
// ErrCacheNotFound for a group-version the server did not list, and fetches
// again a group-version whose cached fetch failed transiently.
func (d *memCacheClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.filled {
		if err := d.fillLocked(ctx); err != nil {
			return nil, err
		}
	}
	entry, ok := d.byGroupVersion[groupVersion]
	if !ok {
		return nil, ErrCacheNotFound
	}
	if entry.err != nil && isTransientError(entry.err) {
		list, err := d.fetchGroupVersion(ctx, groupVersion)
		logFetchError(ctx, groupVersion, err)
		entry = &fetchResult{list: list, err: err}
		d.byGroupVersion[groupVersion] = entry
	}
	return entry.list, entry.err
}

// ServerGroupsAndResources returns the cached groups and resources.
//
// Prefer ServerGroupsAndResourcesWithContext.
func (d *memCacheClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerGroupsAndResourcesWithContext returns the cached groups and
// resources; failed group-versions are reported through
// discovery.ErrGroupDiscoveryFailed.
func (d *memCacheClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResourcesWithContext(ctx, d)
}

// GroupsAndMaybeResources returns the cached groups and, when the cache was
// filled from aggregated discovery, the cached resources and failures.
//
// Prefer GroupsAndMaybeResourcesWithContext.
func (d *memCacheClient) GroupsAndMaybeResources() (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	return d.GroupsAndMaybeResourcesWithContext(context.Background())
}

// GroupsAndMaybeResourcesWithContext returns the cached groups and, when the
// cache was filled from aggregated discovery, the cached resources and
// failures. Otherwise the resource maps are nil and callers ask for each
// group-version, which lets transient failures be retried.
func (d *memCacheClient) GroupsAndMaybeResourcesWithContext(ctx context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.filled {
		if err := d.fillLocked(ctx); err != nil {
			return nil, nil, nil, err
		}
	}
	if !d.fromAggregated || len(d.byGroupVersion) == 0 {
		return d.groups, nil, nil, nil
	}
	resources := map[schema.GroupVersion]*metav1.APIResourceList{}
	failed := map[schema.GroupVersion]error{}
	for key, entry := range d.byGroupVersion {
		gv, err := schema.ParseGroupVersion(key)
		if err != nil {
			failed[schema.GroupVersion{Version: key}] = err
			continue
		}
		if entry.err != nil {
			failed[gv] = entry.err
		} else {
			resources[gv] = entry.list
		}
	}
	return d.groups, resources, failed, nil
}

// ServerGroups returns the cached group list.
//
// Prefer ServerGroupsWithContext.
func (d *memCacheClient) ServerGroups() (*metav1.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerGroupsWithContext returns the cached group list.
func (d *memCacheClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	groups, _, _, err := d.GroupsAndMaybeResourcesWithContext(ctx)
	if err != nil {
		return nil, err
	}
	return groups, nil
}

// RESTClient returns the delegate's REST client.
func (d *memCacheClient) RESTClient() restclient.Interface {
	if d.delegate == nil {
		return nil
	}
	return d.delegate.RESTClient()
}

// ServerPreferredResources computes the preferred resources from the cache.
//
// Prefer ServerPreferredResourcesWithContext.
func (d *memCacheClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredResourcesWithContext(context.Background())
}

// ServerPreferredResourcesWithContext computes the preferred resources from
// the cache.
func (d *memCacheClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResourcesWithContext(ctx, d)
}

// ServerPreferredNamespacedResources computes the preferred namespaced
// resources from the cache.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func (d *memCacheClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredNamespacedResourcesWithContext(context.Background())
}

// ServerPreferredNamespacedResourcesWithContext computes the preferred
// namespaced resources from the cache.
func (d *memCacheClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResourcesWithContext(ctx, d)
}

// ServerVersion asks the delegate; it is not cached.
//
// Prefer ServerVersionWithContext.
func (d *memCacheClient) ServerVersion() (*version.Info, error) {
	return d.ServerVersionWithContext(context.Background())
}

// ServerVersionWithContext asks the delegate; it is not cached.
func (d *memCacheClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	if d.delegate == nil {
		return nil, errNoDelegate
	}
	return d.delegate.ServerVersionWithContext(ctx)
}

// OpenAPISchema asks the delegate; it is not cached.
//
// Prefer OpenAPISchemaWithContext.
func (d *memCacheClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.OpenAPISchemaWithContext(context.Background())
}

// OpenAPISchemaWithContext asks the delegate; it is not cached.
func (d *memCacheClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	if d.delegate == nil {
		return nil, errNoDelegate
	}
	return d.delegate.OpenAPISchemaWithContext(ctx)
}

// OpenAPIV3 returns an OpenAPI v3 client that caches the path listing and
// the documents in memory until Invalidate.
//
// Prefer OpenAPIV3WithContext.
func (d *memCacheClient) OpenAPIV3() openapi.Client {
	return d.openAPIV3(context.Background())
}

// OpenAPIV3WithContext returns an OpenAPI v3 client that caches the path
// listing and the documents in memory until InvalidateWithContext.
func (d *memCacheClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return d.openAPIV3(ctx)
}

func (d *memCacheClient) openAPIV3(ctx context.Context) *cachedopenapi.Client {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.openAPI == nil {
		var source openapi.ClientWithContext = noOpenAPI{}
		if d.delegate != nil {
			source = d.delegate.OpenAPIV3WithContext(ctx)
		}
		d.openAPI = cachedopenapi.NewClientWithContext(source)
	}
	return d.openAPI
}

// Fresh reports whether the cache is filled.
//
// Prefer FreshWithContext.
func (d *memCacheClient) Fresh() bool {
	return d.FreshWithContext(context.Background())
}

// FreshWithContext reports whether the cache is filled. A single entry may
// still be missing after a transient failure; asking for it fetches it
// again.
func (d *memCacheClient) FreshWithContext(ctx context.Context) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.filled
}

// Invalidate empties the cache, and the delegate's if it is cached too.
//
// Prefer InvalidateWithContext.
func (d *memCacheClient) Invalidate() {
	d.InvalidateWithContext(context.Background())
}

// InvalidateWithContext empties the cache, and the delegate's if it is
// cached too; the next call fetches everything again.
func (d *memCacheClient) InvalidateWithContext(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.filled = false
	d.byGroupVersion = nil
	d.groups = nil
	d.openAPI = nil
	d.fromAggregated = false
	if cached, ok := d.delegate.(discovery.CachedDiscoveryInterfaceWithContext); ok {
		cached.InvalidateWithContext(ctx)
	} else if cached, ok := d.delegate.(discovery.CachedDiscoveryInterface); ok {
		cached.Invalidate()
	}
}

// WithLegacy returns d: the cache has no legacy-only mode.
//
// Prefer WithLegacyWithContext.
func (d *memCacheClient) WithLegacy() discovery.DiscoveryInterface {
	return d
}

// WithLegacyWithContext returns d: the cache has no legacy-only mode.
func (d *memCacheClient) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return d
}

// fillLocked fills the cache. With an aggregated answer the groups and
// resources arrive together; otherwise every group-version is fetched
// concurrently and its result, success or failure, is cached. d.mu must be
// held for writing.
func (d *memCacheClient) fillLocked(ctx context.Context) error {
	if d.delegate == nil {
		return errNoDelegate
	}
	var (
		groups *metav1.APIGroupList
		err    error
	)
	if aggregated, ok := d.aggregatedDelegate(); ok {
		var (
			resources map[schema.GroupVersion]*metav1.APIResourceList
			failed    map[schema.GroupVersion]error
		)
		groups, resources, failed, err = aggregated.GroupsAndMaybeResourcesWithContext(ctx)
		if err == nil && resources != nil {
			entries := make(map[string]*fetchResult, len(resources)+len(failed))
			for gv, list := range resources {
				entries[gv.String()] = &fetchResult{list: list}
			}
			for gv, gvErr := range failed {
				entries[gv.String()] = &fetchResult{err: gvErr}
			}
			d.byGroupVersion = entries
			d.groups = groups
			d.fromAggregated = true
			d.filled = true
			return nil
		}
	} else {
		groups, err = d.delegate.ServerGroupsWithContext(ctx)
	}
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Couldn't get current server API group list")
		return err
	}
	if groups == nil || len(groups.Groups) == 0 {
		// Nothing to cache; the next call asks again.
		klog.FromContext(ctx).V(3).Info("Server returned no API groups")
		return nil
	}

	var (
		wg sync.WaitGroup
		// mu guards entries, written by the fetching goroutines.
		mu      sync.Mutex
		entries = map[string]*fetchResult{}
	)
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gv := v.GroupVersion
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer utilruntime.HandleCrashWithContext(ctx)
				list, err := d.fetchGroupVersion(ctx, gv)
				logFetchError(ctx, gv, err)
				mu.Lock()
				entries[gv] = &fetchResult{list: list, err: err}
				mu.Unlock()
			}()
		}
	}
	wg.Wait()

	d.byGroupVersion = entries
	d.groups = groups
	d.filled = true
	return nil
}

// aggregatedDelegate returns the delegate as an aggregated discovery client
// when it is one.
func (d *memCacheClient) aggregatedDelegate() (discovery.AggregatedDiscoveryInterfaceWithContext, bool) {
	if aggregated, ok := d.delegate.(discovery.AggregatedDiscoveryInterfaceWithContext); ok {
		return aggregated, true
	}
	if aggregated, ok := d.delegate.(discovery.AggregatedDiscoveryInterface); ok {
		return discovery.ToAggregatedDiscoveryInterfaceWithContext(aggregated), true
	}
	return nil, false
}

// fetchGroupVersion asks the delegate for the resources of groupVersion and
// treats an empty list as a failure.
func (d *memCacheClient) fetchGroupVersion(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	list, err := d.delegate.ServerResourcesForGroupVersionWithContext(ctx, groupVersion)
	if err != nil {
		return list, err
	}
	if list == nil || len(list.APIResources) == 0 {
		return list, &emptyResponseError{gv: groupVersion}
	}
	return list, nil
}

// logFetchError reports a failed group-version fetch. Empty group-versions
// (typical of metrics APIs) are only logged at a high verbosity.
func logFetchError(ctx context.Context, groupVersion string, err error) {
	if err == nil {
		return
	}
	var empty *emptyResponseError
	if errors.As(err, &empty) {
		klog.FromContext(ctx).V(3).Info(err.Error())
		return
	}
	utilruntime.HandleErrorWithContext(ctx, err, "Couldn't get resource list", "groupVersion", groupVersion)
}
