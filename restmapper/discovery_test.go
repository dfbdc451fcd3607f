package restmapper_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/cached/disk"
	"github.com/kubeclient/client-go/discovery/cached/memory"
	"github.com/kubeclient/client-go/restmapper"
)

func groupResources(t *testing.T, groups []testGroup) []*restmapper.APIGroupResources {
	t.Helper()
	s := newDiscoveryServer(t, groups)
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	grs, err := restmapper.GetAPIGroupResources(dc)
	if err != nil {
		t.Fatal(err)
	}
	return grs
}

func TestGetAPIGroupResources(t *testing.T) {
	grs := groupResources(t, cluster())
	if len(grs) != 3 {
		t.Fatalf("got %d groups, want 3", len(grs))
	}
	apps := grs[1]
	if apps.Group.Name != "apps" || apps.Group.PreferredVersion.Version != "v1" {
		t.Errorf("second group = %+v", apps.Group)
	}
	if len(apps.VersionedResources["v1"]) != 2 || len(apps.VersionedResources["v1beta2"]) != 2 {
		t.Errorf("apps resources = %v", apps.VersionedResources)
	}
}

func TestGetAPIGroupResourcesToleratesPartialFailure(t *testing.T) {
	s := newDiscoveryServer(t, cluster())
	s.fail("/apis/apps/v1beta2")
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	grs, err := restmapper.GetAPIGroupResourcesWithContext(context.Background(), dc)
	if err != nil {
		t.Fatalf("partial failure returned an error: %v", err)
	}
	apps := grs[1]
	if _, ok := apps.VersionedResources["v1beta2"]; ok {
		t.Error("the failed version has resources")
	}
	if _, ok := apps.VersionedResources["v1"]; !ok {
		t.Error("the healthy version is missing")
	}

	s.fail("/apis")
	if _, err := restmapper.GetAPIGroupResources(dc); err == nil {
		t.Error("no error when the group list cannot be read")
	}
}

func TestDiscoveryRESTMapper(t *testing.T) {
	groups := append(cluster(), testGroup{name: "example.com", versions: []testVersion{{version: "v1", resources: groupResourcesOf("pods", "Pod")}}})
	grs := groupResources(t, groups)
	mappers := map[string]meta.RESTMapper{
		"legacy":      restmapper.NewDiscoveryRESTMapper(grs),
		"withContext": contextlessMapper{restmapper.NewDiscoveryRESTMapperWithContext(grs)},
	}
	for name, m := range mappers {
		t.Run(name, func(t *testing.T) {
			kindTests := []struct {
				in   schema.GroupVersionResource
				want schema.GroupVersionKind
			}{
				// The core group wins over example.com/v1 pods.
				{schema.GroupVersionResource{Resource: "pods"}, schema.GroupVersionKind{Version: "v1", Kind: "Pod"}},
				{schema.GroupVersionResource{Resource: "pod"}, schema.GroupVersionKind{Version: "v1", Kind: "Pod"}},
				// The preferred version wins.
				{schema.GroupVersionResource{Resource: "deployments"}, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}},
				{schema.GroupVersionResource{Group: "apps", Version: "v1beta2", Resource: "deployments"}, schema.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "Deployment"}},
				// Only a non-preferred version has it.
				{schema.GroupVersionResource{Resource: "oldthings"}, schema.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "OldThing"}},
				// The singular is guessed when discovery has none.
				{schema.GroupVersionResource{Resource: "oldthing"}, schema.GroupVersionKind{Group: "apps", Version: "v1beta2", Kind: "OldThing"}},
				{schema.GroupVersionResource{Group: "example.com", Resource: "pods"}, schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Pod"}},
			}
			for _, tc := range kindTests {
				got, err := m.KindFor(tc.in)
				if err != nil || got != tc.want {
					t.Errorf("KindFor(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
				}
			}

			if _, err := m.KindFor(schema.GroupVersionResource{Resource: "pods/status"}); err == nil {
				t.Error("a subresource was mapped")
			}
			mapping, err := m.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"})
			if err != nil {
				t.Fatal(err)
			}
			if mapping.Resource != (schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}) || mapping.Scope.Name() != meta.RESTScopeNameNamespace {
				t.Errorf("RESTMapping(Deployment) = %+v", mapping)
			}
			mapping, err = m.RESTMapping(schema.GroupKind{Kind: "Namespace"})
			if err != nil || mapping.Scope.Name() != meta.RESTScopeNameRoot {
				t.Errorf("RESTMapping(Namespace) = %+v, %v; want root scope", mapping, err)
			}
			mappings, err := m.RESTMappings(schema.GroupKind{Group: "apps", Kind: "Deployment"})
			if err != nil || len(mappings) != 2 {
				t.Errorf("RESTMappings(Deployment) = %d mappings, %v; want 2", len(mappings), err)
			}
			if singular, err := m.ResourceSingularizer("deployments"); err != nil || singular != "deployment" {
				t.Errorf("ResourceSingularizer = %q, %v", singular, err)
			}
			if _, err := m.KindFor(schema.GroupVersionResource{Resource: "nothings"}); !meta.IsNoMatchError(err) {
				t.Errorf("unknown resource: err = %v, want NoMatch", err)
			}
		})
	}
}

func groupResourcesOf(name, kind string) []metav1.APIResource {
	return []metav1.APIResource{res(name, strings.TrimSuffix(name, "s"), kind, true, nil, nil)}
}

// contextlessMapper lets the table above drive a RESTMapperWithContext.
type contextlessMapper struct{ m meta.RESTMapperWithContext }

func (c contextlessMapper) KindFor(r schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	return c.m.KindForWithContext(context.Background(), r)
}
func (c contextlessMapper) KindsFor(r schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	return c.m.KindsForWithContext(context.Background(), r)
}
func (c contextlessMapper) ResourceFor(r schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return c.m.ResourceForWithContext(context.Background(), r)
}
func (c contextlessMapper) ResourcesFor(r schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return c.m.ResourcesForWithContext(context.Background(), r)
}
func (c contextlessMapper) RESTMapping(gk schema.GroupKind, v ...string) (*meta.RESTMapping, error) {
	return c.m.RESTMappingWithContext(context.Background(), gk, v...)
}
func (c contextlessMapper) RESTMappings(gk schema.GroupKind, v ...string) ([]*meta.RESTMapping, error) {
	return c.m.RESTMappingsWithContext(context.Background(), gk, v...)
}
func (c contextlessMapper) ResourceSingularizer(r string) (string, error) {
	return c.m.ResourceSingularizerWithContext(context.Background(), r)
}

// staleDiskClient returns a disk-cached discovery client that reads files
// another client wrote before the CronTab CRD was created on s, so its data
// is stale and not Fresh.
func staleDiskClient(t *testing.T, s *discoveryServer) *disk.CachedDiscoveryClient {
	t.Helper()
	dir := t.TempDir()
	writer, err := disk.NewCachedDiscoveryClientForConfig(s.config(), dir, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := writer.ServerGroupsAndResources(); err != nil {
		t.Fatal(err)
	}
	s.setGroups(append(cluster(), cronTabGroup("stable.example.com")))
	reader, err := disk.NewCachedDiscoveryClientForConfig(s.config(), dir, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return reader
}

func TestDeferredMapperRediscoversOnMiss(t *testing.T) {
	s := newDiscoveryServer(t, cluster())
	m := restmapper.NewDeferredDiscoveryRESTMapper(staleDiskClient(t, s))

	if gvk, err := m.KindFor(schema.GroupVersionResource{Resource: "pods"}); err != nil || gvk.Kind != "Pod" {
		t.Fatalf("KindFor(pods) = %v, %v", gvk, err)
	}
	// The CRD is not in the stale files: the miss resets and retries.
	gvk, err := m.KindFor(schema.GroupVersionResource{Resource: "crontabs"})
	if err != nil {
		t.Fatalf("KindFor(crontabs) after the CRD appeared: %v", err)
	}
	if gvk != (schema.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}) {
		t.Errorf("KindFor(crontabs) = %v", gvk)
	}

	// Now fresh: a real miss is reported without rediscovering.
	before := s.requestCount()
	if _, err := m.KindFor(schema.GroupVersionResource{Resource: "nothings"}); !meta.IsNoMatchError(err) {
		t.Errorf("err = %v, want NoMatch", err)
	}
	if s.requestCount() != before {
		t.Error("a miss on fresh data rediscovered")
	}
	if !strings.HasPrefix(m.String(), "DeferredDiscoveryRESTMapper{") {
		t.Errorf("String() = %q", m.String())
	}
}

func TestDeferredMapperEachLookupRetries(t *testing.T) {
	crd := schema.GroupKind{Group: "stable.example.com", Kind: "CronTab"}
	lookups := map[string]func(*restmapper.DeferredDiscoveryRESTMapper) error{
		"KindsFor": func(m *restmapper.DeferredDiscoveryRESTMapper) error {
			_, err := m.KindsFor(schema.GroupVersionResource{Resource: "crontabs"})
			return err
		},
		"ResourceFor": func(m *restmapper.DeferredDiscoveryRESTMapper) error {
			_, err := m.ResourceFor(schema.GroupVersionResource{Resource: "crontab"})
			return err
		},
		"ResourcesFor": func(m *restmapper.DeferredDiscoveryRESTMapper) error {
			_, err := m.ResourcesFor(schema.GroupVersionResource{Resource: "crontabs"})
			return err
		},
		"RESTMapping": func(m *restmapper.DeferredDiscoveryRESTMapper) error {
			_, err := m.RESTMapping(crd)
			return err
		},
		"RESTMappings": func(m *restmapper.DeferredDiscoveryRESTMapper) error {
			_, err := m.RESTMappings(crd)
			return err
		},
		"ResourceSingularizer": func(m *restmapper.DeferredDiscoveryRESTMapper) error {
			_, err := m.ResourceSingularizer("crontabs")
			return err
		},
	}
	for name, lookup := range lookups {
		t.Run(name, func(t *testing.T) {
			s := newDiscoveryServer(t, cluster())
			m := restmapper.NewDeferredDiscoveryRESTMapperWithContext(staleDiskClient(t, s))
			if err := lookup(m); err != nil {
				t.Errorf("%s on stale data: %v", name, err)
			}
		})
	}
}

func TestDeferredMapperReset(t *testing.T) {
	s := newDiscoveryServer(t, cluster())
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	cached := memory.NewMemCacheClient(dc)
	m := restmapper.NewDeferredDiscoveryRESTMapper(cached)
	if _, err := m.RESTMapping(schema.GroupKind{Kind: "Pod"}); err != nil {
		t.Fatal(err)
	}
	s.setGroups(append(cluster(), cronTabGroup("stable.example.com")))
	// The memory cache filled itself, so it is fresh: no retry on a miss.
	if _, err := m.KindFor(schema.GroupVersionResource{Resource: "crontabs"}); !meta.IsNoMatchError(err) {
		t.Fatalf("err = %v, want NoMatch before Reset", err)
	}
	m.Reset()
	if cached.Fresh() {
		t.Error("Reset did not invalidate the discovery client")
	}
	if _, err := m.KindFor(schema.GroupVersionResource{Resource: "crontabs"}); err != nil {
		t.Errorf("after Reset: %v", err)
	}
	var _ meta.ResettableRESTMapper = m
}

func TestDeferredMapperDiscoveryError(t *testing.T) {
	s := newDiscoveryServer(t, cluster())
	s.fail("/api")
	s.fail("/apis")
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	m := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	if _, err := m.KindFor(schema.GroupVersionResource{Resource: "pods"}); err == nil || meta.IsNoMatchError(err) {
		t.Errorf("err = %v, want the discovery error", err)
	}
	if !strings.Contains(m.String(), "DeferredDiscoveryRESTMapper{") {
		t.Errorf("String() = %q", m.String())
	}
}

func TestNilDiscoveryClients(t *testing.T) {
	m := restmapper.NewDeferredDiscoveryRESTMapperWithContext(nil)
	if _, err := m.KindFor(schema.GroupVersionResource{Resource: "pods"}); err == nil {
		t.Error("a deferred mapper without a discovery client mapped something")
	}
	m.Reset()
	grs := groupResources(t, cluster())
	e := restmapper.NewShortcutExpander(restmapper.NewDiscoveryRESTMapper(grs), nil, nil)
	if _, err := e.KindFor(schema.GroupVersionResource{Resource: "deploy"}); !meta.IsNoMatchError(err) {
		t.Errorf("without discovery a short name should not expand: err = %v", err)
	}
	if gvk, err := e.KindFor(schema.GroupVersionResource{Resource: "deployments"}); err != nil || gvk.Kind != "Deployment" {
		t.Errorf("KindFor(deployments) = %v, %v", gvk, err)
	}
}
