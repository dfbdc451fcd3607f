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

// memCacheClient is the CachedDiscoveryInterface of this package. Its
// methods without a context are in without_context.go.
type memCacheClient struct {
	delegate discovery.DiscoveryInterfaceWithContext

	// mu guards cache and openAPI. Filling the cache happens with mu held
	// for writing, so that concurrent callers wait for one fetch instead
	// of starting their own.
	mu      sync.RWMutex
	cache   discoveryCache
	openAPI *cachedopenapi.Client
}

// discoveryCache is what a memCacheClient has discovered. The zero value
// is an empty cache.
type discoveryCache struct {
	filled bool
	groups *metav1.APIGroupList
	// byGroupVersion holds the outcome of each group-version's fetch,
	// keyed by its "group/version" string.
	byGroupVersion map[string]*fetchResult
	// fromAggregated records that the cache was filled from an aggregated
	// discovery answer, which carries the resources with the groups.
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
	return &memCacheClient{delegate: discovery.ToDiscoveryInterfaceWithContext(delegate)}
}

// NewMemCacheClientWithContext returns a CachedDiscoveryInterfaceWithContext
// that caches what delegate discovers in memory. A cache miss is not looked
// up on the server: call InvalidateWithContext to have everything fetched
// again.
func NewMemCacheClientWithContext(delegate discovery.DiscoveryInterfaceWithContext) discovery.CachedDiscoveryInterfaceWithContext {
	return &memCacheClient{delegate: delegate}
}

// transientErrorChecks recognise errors after which fetching again may
// succeed.
var transientErrorChecks = []func(error) bool{
	func(err error) bool {
		return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
	},
	func(err error) bool {
		return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
	},
	func(err error) bool {
		status, ok := err.(apierrors.APIStatus)
		return ok && status.Status().Code >= 500
	},
	apierrors.IsTooManyRequests,
}

// isTransientError reports whether fetching again may succeed where err
// failed.
func isTransientError(err error) bool {
	for _, transient := range transientErrorChecks {
		if transient(err) {
			return true
		}
	}
	return false
}

// filledLocked returns the cache, filling it first if needed. d.mu must be
// held for writing.
func (d *memCacheClient) filledLocked(ctx context.Context) (*discoveryCache, error) {
	if !d.cache.filled {
		if err := d.fillLocked(ctx); err != nil {
			return nil, err
		}
	}
	return &d.cache, nil
}

// ServerResourcesForGroupVersionWithContext returns the cached resources of
// groupVersion, filling the cache first if needed. It returns
// ErrCacheNotFound for a group-version the server did not list, and fetches
// again a group-version whose cached fetch failed transiently.
func (d *memCacheClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cache, err := d.filledLocked(ctx)
	if err != nil {
		return nil, err
	}
	result, known := cache.byGroupVersion[groupVersion]
	switch {
	case !known:
		return nil, ErrCacheNotFound
	case result.err != nil && isTransientError(result.err):
		result = d.fetchGroupVersion(ctx, groupVersion)
		cache.byGroupVersion[groupVersion] = result
	}
	return result.list, result.err
}

// ServerGroupsAndResourcesWithContext returns the cached groups and
// resources; failed group-versions are reported through
// discovery.ErrGroupDiscoveryFailed.
func (d *memCacheClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResourcesWithContext(ctx, d)
}

// GroupsAndMaybeResourcesWithContext returns the cached groups and, when the
// cache was filled from aggregated discovery, the cached resources and
// failures. Otherwise the resource maps are nil and callers ask for each
// group-version, which lets transient failures be retried.
func (d *memCacheClient) GroupsAndMaybeResourcesWithContext(ctx context.Context) (*metav1.APIGroupList, map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cache, err := d.filledLocked(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	if !cache.fromAggregated || len(cache.byGroupVersion) == 0 {
		return cache.groups, nil, nil, nil
	}
	resources, failed := cache.resultsByGroupVersion()
	return cache.groups, resources, failed, nil
}

// resultsByGroupVersion splits the fetch results into resources and
// failures keyed by parsed group-version; a key that does not parse is a
// failure under its raw string as the version.
func (c *discoveryCache) resultsByGroupVersion() (map[schema.GroupVersion]*metav1.APIResourceList, map[schema.GroupVersion]error) {
	resources := map[schema.GroupVersion]*metav1.APIResourceList{}
	failed := map[schema.GroupVersion]error{}
	for key, result := range c.byGroupVersion {
		gv, err := schema.ParseGroupVersion(key)
		switch {
		case err != nil:
			failed[schema.GroupVersion{Version: key}] = err
		case result.err != nil:
			failed[gv] = result.err
		default:
			resources[gv] = result.list
		}
	}
	return resources, failed
}

// ServerGroupsWithContext returns the cached group list.
func (d *memCacheClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	groups, _, _, err := d.GroupsAndMaybeResourcesWithContext(ctx)
	if err != nil {
		groups = nil
	}
	return groups, err
}

// RESTClient returns the delegate's REST client.
func (d *memCacheClient) RESTClient() restclient.Interface {
	if d.delegate != nil {
		return d.delegate.RESTClient()
	}
	return nil
}

// ServerPreferredResourcesWithContext computes the preferred resources from
// the cache.
func (d *memCacheClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResourcesWithContext(ctx, d)
}

// ServerPreferredNamespacedResourcesWithContext computes the preferred
// namespaced resources from the cache.
func (d *memCacheClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResourcesWithContext(ctx, d)
}

// ServerVersionWithContext asks the delegate; it is not cached.
func (d *memCacheClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	if d.delegate != nil {
		return d.delegate.ServerVersionWithContext(ctx)
	}
	return nil, errNoDelegate
}

// OpenAPISchemaWithContext asks the delegate; it is not cached.
func (d *memCacheClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	if d.delegate != nil {
		return d.delegate.OpenAPISchemaWithContext(ctx)
	}
	return nil, errNoDelegate
}

// OpenAPIV3WithContext returns an OpenAPI v3 client that caches the path
// listing and the documents in memory until InvalidateWithContext.
func (d *memCacheClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return d.openAPIV3(ctx)
}

func (d *memCacheClient) openAPIV3(ctx context.Context) *cachedopenapi.Client {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.openAPI != nil {
		return d.openAPI
	}
	var source openapi.ClientWithContext = noOpenAPI{}
	if d.delegate != nil {
		source = d.delegate.OpenAPIV3WithContext(ctx)
	}
	d.openAPI = cachedopenapi.NewClientWithContext(source)
	return d.openAPI
}

// FreshWithContext reports whether the cache is filled. A single entry may
// still be missing after a transient failure; asking for it fetches it
// again.
func (d *memCacheClient) FreshWithContext(ctx context.Context) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.cache.filled
}

// InvalidateWithContext empties the cache, and the delegate's if it is
// cached too; the next call fetches everything again.
func (d *memCacheClient) InvalidateWithContext(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cache, d.openAPI = discoveryCache{}, nil
	switch cached := d.delegate.(type) {
	case discovery.CachedDiscoveryInterfaceWithContext:
		cached.InvalidateWithContext(ctx)
	case discovery.CachedDiscoveryInterface:
		cached.Invalidate()
	}
}

// WithLegacyWithContext returns d: the cache has no legacy-only mode.
func (d *memCacheClient) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return d
}

// fillLocked fills the cache. With an aggregated answer the groups and
// resources arrive together; otherwise every group-version is fetched
// concurrently and its result, success or failure, is cached. An empty
// group list leaves the cache unfilled, so that the next call asks again.
// d.mu must be held for writing.
func (d *memCacheClient) fillLocked(ctx context.Context) error {
	if d.delegate == nil {
		return errNoDelegate
	}
	groups, aggregated, err := d.discoverGroups(ctx)
	switch {
	case err != nil:
		utilruntime.HandleErrorWithContext(ctx, err, "Couldn't get current server API group list")
		return err
	case aggregated != nil:
		d.cache = discoveryCache{filled: true, groups: groups, byGroupVersion: aggregated, fromAggregated: true}
	case groups == nil || len(groups.Groups) == 0:
		klog.FromContext(ctx).V(3).Info("Server returned no API groups")
	default:
		d.cache = discoveryCache{filled: true, groups: groups, byGroupVersion: d.fetchAll(ctx, groups)}
	}
	return nil
}

// discoverGroups asks the delegate for the groups. An aggregated delegate
// that returns the resources too yields them as fetch results.
func (d *memCacheClient) discoverGroups(ctx context.Context) (*metav1.APIGroupList, map[string]*fetchResult, error) {
	delegate, ok := d.aggregatedDelegate()
	if !ok {
		groups, err := d.delegate.ServerGroupsWithContext(ctx)
		return groups, nil, err
	}
	groups, resources, failed, err := delegate.GroupsAndMaybeResourcesWithContext(ctx)
	if err != nil || resources == nil {
		return groups, nil, err
	}
	results := make(map[string]*fetchResult, len(resources)+len(failed))
	for gv, list := range resources {
		results[gv.String()] = &fetchResult{list: list}
	}
	for gv, err := range failed {
		results[gv.String()] = &fetchResult{err: err}
	}
	return groups, results, nil
}

// fetchAll fetches the resources of every version of groups, one goroutine
// per group-version, and waits for all of them.
func (d *memCacheClient) fetchAll(ctx context.Context, groups *metav1.APIGroupList) map[string]*fetchResult {
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex // guards results
		results = map[string]*fetchResult{}
	)
	for _, group := range groups.Groups {
		for _, v := range group.Versions {
			wg.Go(func() {
				defer utilruntime.HandleCrashWithContext(ctx)
				result := d.fetchGroupVersion(ctx, v.GroupVersion)
				mu.Lock()
				defer mu.Unlock()
				results[v.GroupVersion] = result
			})
		}
	}
	wg.Wait()
	return results
}

// aggregatedDelegate returns the delegate as an aggregated discovery client
// when it is one.
func (d *memCacheClient) aggregatedDelegate() (discovery.AggregatedDiscoveryInterfaceWithContext, bool) {
	switch delegate := d.delegate.(type) {
	case discovery.AggregatedDiscoveryInterfaceWithContext:
		return delegate, true
	case discovery.AggregatedDiscoveryInterface:
		return discovery.ToAggregatedDiscoveryInterfaceWithContext(delegate), true
	}
	return nil, false
}

// fetchGroupVersion asks the delegate for the resources of groupVersion,
// treats an empty list as a failure, and logs a failure.
func (d *memCacheClient) fetchGroupVersion(ctx context.Context, groupVersion string) *fetchResult {
	list, err := d.delegate.ServerResourcesForGroupVersionWithContext(ctx, groupVersion)
	if err == nil && (list == nil || len(list.APIResources) == 0) {
		err = &emptyResponseError{gv: groupVersion}
	}
	logFetchError(ctx, groupVersion, err)
	return &fetchResult{list: list, err: err}
}

// logFetchError reports a failed group-version fetch. Empty group-versions
// (typical of metrics APIs) are only logged at a high verbosity.
func logFetchError(ctx context.Context, groupVersion string, err error) {
	var empty *emptyResponseError
	switch {
	case err == nil:
	case errors.As(err, &empty):
		klog.FromContext(ctx).V(3).Info(err.Error())
	default:
		utilruntime.HandleErrorWithContext(ctx, err, "Couldn't get resource list", "groupVersion", groupVersion)
	}
}
