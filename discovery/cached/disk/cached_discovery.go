package disk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/klog/v2"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/cached/memory"
	"github.com/kubeclient/client-go/openapi"
	cachedopenapi "github.com/kubeclient/client-go/openapi/cached"
	restclient "github.com/kubeclient/client-go/rest"
)

const (
	// groupsFileName holds the group list in the cache directory.
	groupsFileName = "servergroups.json"
	// resourcesFileName holds one group-version's resources in
	// <cache directory>/<group-version>/.
	resourcesFileName = "serverresources.json"
)

// CachedDiscoveryClient answers discovery from files in a cache directory,
// asking its delegate (and writing the files) when a file is missing, older
// than the TTL, or written by another process since Invalidate. It is safe
// for concurrent use.
type CachedDiscoveryClient struct {
	delegate discovery.DiscoveryInterfaceWithContext

	// cacheDirectory holds the files; it should be unique per server.
	cacheDirectory string
	// ttl is how long a file is trusted after it was written.
	ttl time.Duration

	// mu guards the fields below.
	mu sync.Mutex
	// ownFiles are the files this client wrote.
	ownFiles map[string]struct{}
	// ignoreForeign makes the client ignore files it did not write itself.
	ignoreForeign bool
	// fresh stays true while every file used was written by this client.
	fresh bool
	// openAPI caches the OpenAPI v3 listing until Invalidate.
	openAPI *cachedopenapi.Client
}

var (
	_ discovery.CachedDiscoveryInterface            = (*CachedDiscoveryClient)(nil)
	_ discovery.CachedDiscoveryInterfaceWithContext = (*CachedDiscoveryClient)(nil)
)

// NewCachedDiscoveryClientForConfig returns a CachedDiscoveryClient for the
// server config describes. Discovery files go to discoveryCacheDir (the
// current directory when empty), which should be unique per server, and are
// trusted for ttl. When httpCacheDir is not empty, the HTTP responses of the
// server (notably the OpenAPI v3 documents) are cached there too and
// revalidated with the server's ETag or Last-Modified. config is not
// modified. Between the files and the server sits an in-memory cache.
func NewCachedDiscoveryClientForConfig(config *restclient.Config, discoveryCacheDir, httpCacheDir string, ttl time.Duration) (*CachedDiscoveryClient, error) {
	if config == nil {
		return nil, errors.New("cached discovery client: config must not be nil")
	}
	if httpCacheDir != "" {
		config = restclient.CopyConfig(config)
		config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
			return newCacheRoundTripper(httpCacheDir, rt)
		})
	}
	client, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	return newCachedDiscoveryClient(memory.NewMemCacheClientWithContext(client), discoveryCacheDir, ttl), nil
}

// newCachedDiscoveryClient returns a client keeping files of delegate's
// answers in cacheDirectory.
func newCachedDiscoveryClient(delegate discovery.DiscoveryInterfaceWithContext, cacheDirectory string, ttl time.Duration) *CachedDiscoveryClient {
	return &CachedDiscoveryClient{
		delegate:       delegate,
		cacheDirectory: cacheDirectory,
		ttl:            ttl,
		ownFiles:       map[string]struct{}{},
		fresh:          true,
	}
}

// ServerResourcesForGroupVersion returns the resources of groupVersion.
//
// Prefer ServerResourcesForGroupVersionWithContext.
func (d *CachedDiscoveryClient) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	return d.ServerResourcesForGroupVersionWithContext(context.Background(), groupVersion)
}

// ServerResourcesForGroupVersionWithContext returns the resources of
// groupVersion from its file, or from the delegate when the file cannot be
// used; a non-empty answer from the delegate is written to the file.
func (d *CachedDiscoveryClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	filename := filepath.Join(d.cacheDirectory, groupVersion, resourcesFileName)
	cached := &metav1.APIResourceList{}
	if d.readCachedObject(ctx, filename, "APIResourceList", cached) {
		return cached, nil
	}

	live, err := d.delegate.ServerResourcesForGroupVersionWithContext(ctx, groupVersion)
	if err != nil {
		klog.FromContext(ctx).V(3).Info("Skipped caching discovery info due to error", "err", err)
		return live, err
	}
	if live == nil || len(live.APIResources) == 0 {
		klog.FromContext(ctx).V(3).Info("Skipped caching discovery info, no resources found", "groupVersion", groupVersion)
		return live, nil
	}
	d.writeCachedObject(ctx, filename, "APIResourceList", live)
	return live, nil
}

// ServerGroupsAndResources returns every group and the resources of all
// their versions.
//
// Prefer ServerGroupsAndResourcesWithContext.
func (d *CachedDiscoveryClient) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return d.ServerGroupsAndResourcesWithContext(context.Background())
}

// ServerGroupsAndResourcesWithContext returns every group and the resources
// of all their versions, each read through the cache files.
func (d *CachedDiscoveryClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResourcesWithContext(ctx, d)
}

// ServerGroups returns the group list.
//
// Prefer ServerGroupsWithContext.
func (d *CachedDiscoveryClient) ServerGroups() (*metav1.APIGroupList, error) {
	return d.ServerGroupsWithContext(context.Background())
}

// ServerGroupsWithContext returns the group list from its file, or from the
// delegate when the file cannot be used; a non-empty answer from the
// delegate is written to the file.
func (d *CachedDiscoveryClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	filename := filepath.Join(d.cacheDirectory, groupsFileName)
	cached := &metav1.APIGroupList{}
	if d.readCachedObject(ctx, filename, "APIGroupList", cached) {
		return cached, nil
	}

	live, err := d.delegate.ServerGroupsWithContext(ctx)
	if err != nil {
		klog.FromContext(ctx).V(3).Info("Skipped caching discovery info due to error", "err", err)
		return live, err
	}
	if live == nil || len(live.Groups) == 0 {
		klog.FromContext(ctx).V(3).Info("Skipped caching discovery info, no groups found")
		return live, nil
	}
	d.writeCachedObject(ctx, filename, "APIGroupList", live)
	return live, nil
}

// readCachedObject decodes filename into into when the file may be used:
// it exists, is younger than the TTL, was written by this client if the
// client was invalidated, and holds an object of kind.
func (d *CachedDiscoveryClient) readCachedObject(ctx context.Context, filename, kind string, into any) bool {
	data, err := d.getCachedFile(filename)
	if err != nil {
		klog.FromContext(ctx).V(6).Info("Not using cached discovery file", "fileName", filename, "reason", err)
		return false
	}
	var typeMeta metav1.TypeMeta
	if err := json.Unmarshal(data, &typeMeta); err != nil || typeMeta.Kind != kind {
		klog.FromContext(ctx).V(3).Info("Ignoring unreadable discovery cache file", "fileName", filename, "kind", typeMeta.Kind, "err", err)
		return false
	}
	if err := json.Unmarshal(data, into); err != nil {
		klog.FromContext(ctx).V(3).Info("Ignoring unreadable discovery cache file", "fileName", filename, "err", err)
		return false
	}
	klog.FromContext(ctx).V(10).Info("Returning cached discovery info", "fileName", filename)
	return true
}

// getCachedFile returns the content of filename when the file may be used.
func (d *CachedDiscoveryClient) getCachedFile(filename string) ([]byte, error) {
	d.mu.Lock()
	_, ours := d.ownFiles[filename]
	ignoreForeign := d.ignoreForeign
	d.mu.Unlock()
	if ignoreForeign && !ours {
		return nil, errors.New("cache invalidated")
	}

	file, err := os.Open(filename)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if time.Now().After(info.ModTime().Add(d.ttl)) {
		return nil, errors.New("cache expired")
	}
	data, err := io.ReadAll(file)
	if err != nil {
		return nil, err
	}

	d.mu.Lock()
	d.fresh = d.fresh && ours
	d.mu.Unlock()
	return data, nil
}

// writeCachedObject stores obj, with apiVersion v1 and kind, in filename.
// Failures are logged: the cache is an optimisation.
func (d *CachedDiscoveryClient) writeCachedObject(ctx context.Context, filename, kind string, obj any) {
	if err := d.writeCachedFile(filename, kind, obj); err != nil {
		klog.FromContext(ctx).V(1).Info("Failed to write cache", "fileName", filename, "err", err)
	}
}

// writeCachedFile replaces filename atomically, so that concurrent readers,
// in this process or another, see either the old or the new content.
func (d *CachedDiscoveryClient) writeCachedFile(filename, kind string, obj any) error {
	data, err := encodeWithTypeMeta(kind, obj)
	if err != nil {
		return err
	}
	return replaceFile(filename, func(tmp, path string) error {
		d.mu.Lock()
		defer d.mu.Unlock()
		if err := os.Rename(tmp, path); err != nil {
			return err
		}
		d.ownFiles[path] = struct{}{}
		return nil
	}, data)
}

// encodeWithTypeMeta encodes obj as JSON with apiVersion "v1" and kind set,
// the form other Kubernetes clients write these files in.
func encodeWithTypeMeta(kind string, obj any) ([]byte, error) {
	switch o := obj.(type) {
	case *metav1.APIGroupList:
		c := *o
		c.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: kind}
		return json.Marshal(&c)
	case *metav1.APIResourceList:
		c := *o
		c.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: kind}
		return json.Marshal(&c)
	default:
		return nil, fmt.Errorf("cannot cache discovery object of type %T", obj)
	}
}

// RESTClient returns the delegate's REST client.
func (d *CachedDiscoveryClient) RESTClient() restclient.Interface {
	return d.delegate.RESTClient()
}

// ServerPreferredResources returns each resource in its preferred version.
//
// Prefer ServerPreferredResourcesWithContext.
func (d *CachedDiscoveryClient) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredResourcesWithContext(context.Background())
}

// ServerPreferredResourcesWithContext returns each resource in its preferred
// version, computed from the cached discovery information.
func (d *CachedDiscoveryClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResourcesWithContext(ctx, d)
}

// ServerPreferredNamespacedResources returns each namespaced resource in its
// preferred version.
//
// Prefer ServerPreferredNamespacedResourcesWithContext.
func (d *CachedDiscoveryClient) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return d.ServerPreferredNamespacedResourcesWithContext(context.Background())
}

// ServerPreferredNamespacedResourcesWithContext returns each namespaced
// resource in its preferred version, computed from the cached discovery
// information.
func (d *CachedDiscoveryClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResourcesWithContext(ctx, d)
}

// ServerVersion asks the delegate; it is not cached.
//
// Prefer ServerVersionWithContext.
func (d *CachedDiscoveryClient) ServerVersion() (*version.Info, error) {
	return d.ServerVersionWithContext(context.Background())
}

// ServerVersionWithContext asks the delegate; it is not cached.
func (d *CachedDiscoveryClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	return d.delegate.ServerVersionWithContext(ctx)
}

// OpenAPISchema asks the delegate for the OpenAPI v2 document.
//
// Prefer OpenAPISchemaWithContext.
func (d *CachedDiscoveryClient) OpenAPISchema() (*openapi_v2.Document, error) {
	return d.OpenAPISchemaWithContext(context.Background())
}

// OpenAPISchemaWithContext asks the delegate for the OpenAPI v2 document.
func (d *CachedDiscoveryClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	return d.delegate.OpenAPISchemaWithContext(ctx)
}

// OpenAPIV3 returns an OpenAPI v3 client caching in memory; with an HTTP
// cache directory the documents are also cached on disk.
//
// Prefer OpenAPIV3WithContext.
func (d *CachedDiscoveryClient) OpenAPIV3() openapi.Client {
	return d.openAPIV3(context.Background())
}

// OpenAPIV3WithContext returns an OpenAPI v3 client caching in memory; with
// an HTTP cache directory the documents are also cached on disk.
func (d *CachedDiscoveryClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return d.openAPIV3(ctx)
}

func (d *CachedDiscoveryClient) openAPIV3(ctx context.Context) *cachedopenapi.Client {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.openAPI == nil {
		d.openAPI = cachedopenapi.NewClientWithContext(d.delegate.OpenAPIV3WithContext(ctx))
	}
	return d.openAPI
}

// Fresh reports whether every file used so far was written by this client,
// in which case retrying after a miss is pointless.
//
// Prefer FreshWithContext.
func (d *CachedDiscoveryClient) Fresh() bool {
	return d.FreshWithContext(context.Background())
}

// FreshWithContext reports whether every file used so far was written by
// this client, in which case retrying after a miss is pointless.
func (d *CachedDiscoveryClient) FreshWithContext(ctx context.Context) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fresh
}

// Invalidate makes the client ignore every file it has not written after
// this call, and invalidates the delegate.
//
// Prefer InvalidateWithContext.
func (d *CachedDiscoveryClient) Invalidate() {
	d.InvalidateWithContext(context.Background())
}

// InvalidateWithContext makes the client ignore every file it has not
// written after this call, and invalidates the delegate.
func (d *CachedDiscoveryClient) InvalidateWithContext(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ownFiles = map[string]struct{}{}
	d.fresh = true
	d.ignoreForeign = true
	d.openAPI = nil
	if cached, ok := d.delegate.(discovery.CachedDiscoveryInterfaceWithContext); ok {
		cached.InvalidateWithContext(ctx)
	} else if cached, ok := d.delegate.(discovery.CachedDiscoveryInterface); ok {
		cached.Invalidate()
	}
}

// WithLegacy returns d: the cache has no legacy-only mode.
func (d *CachedDiscoveryClient) WithLegacy() discovery.DiscoveryInterface {
	return d
}

// WithLegacyWithContext returns d: the cache has no legacy-only mode.
func (d *CachedDiscoveryClient) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return d
}
