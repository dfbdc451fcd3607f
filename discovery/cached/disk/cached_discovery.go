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
		config = withHTTPCache(config, httpCacheDir)
	}
	live, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	return &CachedDiscoveryClient{
		delegate:       memory.NewMemCacheClientWithContext(live),
		cacheDirectory: discoveryCacheDir,
		ttl:            ttl,
		ownFiles:       map[string]struct{}{},
		fresh:          true,
	}, nil
}

// withHTTPCache returns a copy of config whose transport caches responses
// in dir.
func withHTTPCache(config *restclient.Config, dir string) *restclient.Config {
	config = restclient.CopyConfig(config)
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return newCacheRoundTripper(dir, rt)
	})
	return config
}

// discoveryList is a discovery answer the client keeps in a file.
type discoveryList interface {
	*metav1.APIGroupList | *metav1.APIResourceList
}

// fileOrDelegate returns the object in filename, decoded into cached, when
// the file may be used (see readCachedObject). Otherwise it asks fetch, and
// writes a non-empty answer to filename; an error or an empty answer is
// returned as it is, uncached, with a log line naming why (skipped and its
// key-value pairs).
func fileOrDelegate[L discoveryList](ctx context.Context, d *CachedDiscoveryClient, filename, kind string, cached L, fetch func() (L, error), empty func(L) bool, skipped string, keysAndValues ...any) (L, error) {
	if d.readCachedObject(ctx, filename, kind, cached) {
		return cached, nil
	}
	logger := klog.FromContext(ctx)
	live, err := fetch()
	switch {
	case err != nil:
		logger.V(3).Info("Skipped caching discovery info due to error", "err", err)
	case empty(live):
		logger.V(3).Info(skipped, keysAndValues...)
	default:
		d.writeCachedObject(ctx, filename, kind, live)
	}
	return live, err
}

// ServerResourcesForGroupVersionWithContext returns the resources of
// groupVersion from its file, or from the delegate when the file cannot be
// used; a non-empty answer from the delegate is written to the file.
func (d *CachedDiscoveryClient) ServerResourcesForGroupVersionWithContext(ctx context.Context, groupVersion string) (*metav1.APIResourceList, error) {
	return fileOrDelegate(ctx, d,
		filepath.Join(d.cacheDirectory, groupVersion, resourcesFileName), "APIResourceList", &metav1.APIResourceList{},
		func() (*metav1.APIResourceList, error) {
			return d.delegate.ServerResourcesForGroupVersionWithContext(ctx, groupVersion)
		},
		func(l *metav1.APIResourceList) bool { return l == nil || len(l.APIResources) == 0 },
		"Skipped caching discovery info, no resources found", "groupVersion", groupVersion)
}

// ServerGroupsWithContext returns the group list from its file, or from the
// delegate when the file cannot be used; a non-empty answer from the
// delegate is written to the file.
func (d *CachedDiscoveryClient) ServerGroupsWithContext(ctx context.Context) (*metav1.APIGroupList, error) {
	return fileOrDelegate(ctx, d,
		filepath.Join(d.cacheDirectory, groupsFileName), "APIGroupList", &metav1.APIGroupList{},
		func() (*metav1.APIGroupList, error) { return d.delegate.ServerGroupsWithContext(ctx) },
		func(l *metav1.APIGroupList) bool { return l == nil || len(l.Groups) == 0 },
		"Skipped caching discovery info, no groups found")
}

// ServerGroupsAndResourcesWithContext returns every group and the resources
// of all their versions, each read through the cache files.
func (d *CachedDiscoveryClient) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResourcesWithContext(ctx, d)
}

// readCachedObject decodes filename into into when the file may be used:
// it exists, is younger than the TTL, was written by this client if the
// client was invalidated, and holds an object of kind.
func (d *CachedDiscoveryClient) readCachedObject(ctx context.Context, filename, kind string, into any) bool {
	logger := klog.FromContext(ctx)
	data, err := d.getCachedFile(filename)
	if err != nil {
		logger.V(6).Info("Not using cached discovery file", "fileName", filename, "reason", err)
		return false
	}
	if found, err := kindOf(data); err != nil || found != kind {
		logger.V(3).Info("Ignoring unreadable discovery cache file", "fileName", filename, "kind", found, "err", err)
		return false
	}
	if err := json.Unmarshal(data, into); err != nil {
		logger.V(3).Info("Ignoring unreadable discovery cache file", "fileName", filename, "err", err)
		return false
	}
	logger.V(10).Info("Returning cached discovery info", "fileName", filename)
	return true
}

// kindOf returns the kind of the JSON object in data.
func kindOf(data []byte) (string, error) {
	var typeMeta metav1.TypeMeta
	err := json.Unmarshal(data, &typeMeta)
	return typeMeta.Kind, err
}

// getCachedFile returns the content of filename when the file may be used.
func (d *CachedDiscoveryClient) getCachedFile(filename string) ([]byte, error) {
	ours, ignoreForeign := d.ownership(filename)
	if ignoreForeign && !ours {
		return nil, errors.New("cache invalidated")
	}
	data, err := readUnexpired(filename, d.ttl)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.fresh = d.fresh && ours
	return data, nil
}

// ownership reports whether this client wrote filename, and whether it
// ignores files it did not write.
func (d *CachedDiscoveryClient) ownership(filename string) (ours, ignoreForeign bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ours = d.ownFiles[filename]
	return ours, d.ignoreForeign
}

// readUnexpired returns the content of filename unless it was last written
// more than ttl ago.
func readUnexpired(filename string, ttl time.Duration) ([]byte, error) {
	file, err := os.Open(filename)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if expiry := info.ModTime().Add(ttl); time.Now().After(expiry) {
		return nil, errors.New("cache expired")
	}
	return io.ReadAll(file)
}

// writeCachedObject stores obj, with apiVersion v1 and kind, in filename.
// Failures are logged: the cache is an optimisation.
func (d *CachedDiscoveryClient) writeCachedObject(ctx context.Context, filename, kind string, obj any) {
	if err := d.writeCachedFile(filename, kind, obj); err != nil {
		klog.FromContext(ctx).V(1).Info("Failed to write cache", "fileName", filename, "err", err)
	}
}

// writeCachedFile replaces filename atomically, so that concurrent readers,
// in this process or another, see either the old or the new content, and
// remembers that this client wrote it.
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
	typeMeta := metav1.TypeMeta{APIVersion: "v1", Kind: kind}
	switch o := obj.(type) {
	case *metav1.APIGroupList:
		c := *o
		c.TypeMeta = typeMeta
		return json.Marshal(&c)
	case *metav1.APIResourceList:
		c := *o
		c.TypeMeta = typeMeta
		return json.Marshal(&c)
	}
	return nil, fmt.Errorf("cannot cache discovery object of type %T", obj)
}

// RESTClient returns the delegate's REST client.
func (d *CachedDiscoveryClient) RESTClient() restclient.Interface {
	return d.delegate.RESTClient()
}

// ServerPreferredResourcesWithContext returns each resource in its preferred
// version, computed from the cached discovery information.
func (d *CachedDiscoveryClient) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResourcesWithContext(ctx, d)
}

// ServerPreferredNamespacedResourcesWithContext returns each namespaced
// resource in its preferred version, computed from the cached discovery
// information.
func (d *CachedDiscoveryClient) ServerPreferredNamespacedResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResourcesWithContext(ctx, d)
}

// ServerVersionWithContext asks the delegate; it is not cached.
func (d *CachedDiscoveryClient) ServerVersionWithContext(ctx context.Context) (*version.Info, error) {
	return d.delegate.ServerVersionWithContext(ctx)
}

// OpenAPISchemaWithContext asks the delegate for the OpenAPI v2 document.
func (d *CachedDiscoveryClient) OpenAPISchemaWithContext(ctx context.Context) (*openapi_v2.Document, error) {
	return d.delegate.OpenAPISchemaWithContext(ctx)
}

// InvalidateWithContext makes the client ignore every file it has not
// written after this call, and invalidates the delegate.
func (d *CachedDiscoveryClient) InvalidateWithContext(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ownFiles, d.ignoreForeign, d.fresh = map[string]struct{}{}, true, true
	d.openAPI = nil
	switch cached := d.delegate.(type) {
	case discovery.CachedDiscoveryInterfaceWithContext:
		cached.InvalidateWithContext(ctx)
	case discovery.CachedDiscoveryInterface:
		cached.Invalidate()
	}
}

// WithLegacyWithContext returns d: the cache has no legacy-only mode.
func (d *CachedDiscoveryClient) WithLegacyWithContext(ctx context.Context) discovery.DiscoveryInterfaceWithContext {
	return d
}

// FreshWithContext reports whether every file used so far was written by
// this client, in which case retrying after a miss is pointless.
func (d *CachedDiscoveryClient) FreshWithContext(ctx context.Context) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fresh
}

// OpenAPIV3WithContext returns an OpenAPI v3 client caching in memory; with
// an HTTP cache directory the documents are also cached on disk.
func (d *CachedDiscoveryClient) OpenAPIV3WithContext(ctx context.Context) openapi.ClientWithContext {
	return d.openAPIV3(ctx)
}

// openAPIV3 returns the OpenAPI v3 client, created on first use after
// construction or Invalidate.
func (d *CachedDiscoveryClient) openAPIV3(ctx context.Context) *cachedopenapi.Client {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.openAPI != nil {
		return d.openAPI
	}
	d.openAPI = cachedopenapi.NewClientWithContext(d.delegate.OpenAPIV3WithContext(ctx))
	return d.openAPI
}
