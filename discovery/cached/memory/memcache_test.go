package memory_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
	cachedlegacy "github.com/kubeclient/client-go/discovery/cached"
	"github.com/kubeclient/client-go/discovery/cached/internal/apiservertest"
	"github.com/kubeclient/client-go/discovery/cached/memory"
)

func newClient(t *testing.T, s *apiservertest.Server) discovery.CachedDiscoveryInterface {
	t.Helper()
	dc, err := discovery.NewDiscoveryClientForConfig(s.Config())
	if err != nil {
		t.Fatal(err)
	}
	return memory.NewMemCacheClient(dc)
}

func groupVersions(lists []*metav1.APIResourceList) []string {
	var gvs []string
	for _, l := range lists {
		gvs = append(gvs, l.GroupVersion)
	}
	sort.Strings(gvs)
	return gvs
}

var formats = []struct {
	name       string
	aggregated bool
}{
	{"aggregated", true},
	{"legacy", false},
}

func TestServedFromMemoryAfterFirstFetch(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			s := apiservertest.New(t, f.aggregated, apiservertest.CoreAndApps())
			c := newClient(t, s)
			if c.Fresh() {
				t.Fatal("Fresh() = true before anything was fetched")
			}

			groups, lists, err := c.ServerGroupsAndResources()
			if err != nil {
				t.Fatalf("ServerGroupsAndResources: %v", err)
			}
			if len(groups) != 2 {
				t.Errorf("got %d groups, want 2 (core, apps)", len(groups))
			}
			want := fmt.Sprint([]string{"apps/v1", "apps/v1beta2", "v1"})
			if got := fmt.Sprint(groupVersions(lists)); got != want {
				t.Errorf("group versions = %s, want %s", got, want)
			}
			if !c.Fresh() {
				t.Error("Fresh() = false after a fetch")
			}
			requests := s.Total()

			if _, _, err := c.ServerGroupsAndResources(); err != nil {
				t.Fatal(err)
			}
			list, err := c.ServerResourcesForGroupVersion("apps/v1")
			if err != nil {
				t.Fatal(err)
			}
			if list.APIResources[0].Name != "deployments" {
				t.Errorf("apps/v1 resources = %+v", list.APIResources)
			}
			gl, err := c.ServerGroups()
			if err != nil || len(gl.Groups) != 2 {
				t.Errorf("ServerGroups = %v, %v", gl, err)
			}
			if _, err := c.ServerPreferredResources(); err != nil {
				t.Errorf("ServerPreferredResources: %v", err)
			}
			if _, err := c.ServerPreferredNamespacedResources(); err != nil {
				t.Errorf("ServerPreferredNamespacedResources: %v", err)
			}
			if got := s.Total(); got != requests {
				t.Errorf("server saw %d more requests after the cache was filled", got-requests)
			}
		})
	}
}

func TestInvalidateRefetches(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			s := apiservertest.New(t, f.aggregated, apiservertest.CoreAndApps())
			c := newClient(t, s)
			if _, _, err := c.ServerGroupsAndResources(); err != nil {
				t.Fatal(err)
			}
			s.SetGroups(append(apiservertest.CoreAndApps(), apiservertest.CronTabCRD()))

			// The CRD is invisible until Invalidate.
			if _, err := c.ServerResourcesForGroupVersion("stable.example.com/v1"); !errors.Is(err, memory.ErrCacheNotFound) {
				t.Fatalf("before Invalidate: err = %v, want ErrCacheNotFound", err)
			}
			before := s.Count("/apis")
			c.Invalidate()
			if c.Fresh() {
				t.Error("Fresh() = true right after Invalidate")
			}
			list, err := c.ServerResourcesForGroupVersion("stable.example.com/v1")
			if err != nil {
				t.Fatalf("after Invalidate: %v", err)
			}
			if list.APIResources[0].Name != "crontabs" {
				t.Errorf("resources = %+v", list.APIResources)
			}
			if got := s.Count("/apis"); got != before+1 {
				t.Errorf("/apis fetched %d times after Invalidate, want 1", got-before)
			}
		})
	}
}

func TestErrCacheNotFound(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	c := newClient(t, s)
	_, err := c.ServerResourcesForGroupVersion("nothere.example.com/v1")
	if !errors.Is(err, memory.ErrCacheNotFound) {
		t.Fatalf("err = %v, want ErrCacheNotFound", err)
	}
	if cachedlegacy.ErrCacheNotFound != memory.ErrCacheNotFound {
		t.Error("discovery/cached.ErrCacheNotFound is not memory.ErrCacheNotFound")
	}
}

func TestLegacyPackageAlias(t *testing.T) {
	s := apiservertest.New(t, false, apiservertest.CoreAndApps())
	dc, err := discovery.NewDiscoveryClientForConfig(s.Config())
	if err != nil {
		t.Fatal(err)
	}
	c := cachedlegacy.NewMemCacheClient(dc)
	if _, err := c.ServerResourcesForGroupVersion("v1"); err != nil {
		t.Fatal(err)
	}
	n := s.Total()
	if _, err := c.ServerResourcesForGroupVersion("v1"); err != nil {
		t.Fatal(err)
	}
	if s.Total() != n {
		t.Error("the client of discovery/cached does not cache")
	}
}

func TestTransientFailureRetriedOnNextCall(t *testing.T) {
	s := apiservertest.New(t, false, apiservertest.CoreAndApps())
	// The cache fills itself (first 503), then the per-group-version pass
	// of ServerGroupsAndResources retries the transient failure at once
	// (second 503).
	s.Fail("/apis/apps/v1", 2)
	c := newClient(t, s)

	_, lists, err := c.ServerGroupsAndResources()
	failed, ok := discovery.GroupDiscoveryFailedErrorGroups(err)
	if !ok {
		t.Fatalf("err = %v, want ErrGroupDiscoveryFailed", err)
	}
	appsV1 := schema.GroupVersion{Group: "apps", Version: "v1"}
	if len(failed) != 1 || !apierrors.IsServiceUnavailable(failed[appsV1]) {
		t.Errorf("failed groups = %v, want apps/v1 with 503", failed)
	}
	if got := fmt.Sprint(groupVersions(lists)); got != "[apps/v1beta2 v1]" {
		t.Errorf("partial results = %s", got)
	}

	// The 503 is transient: the next call fetches apps/v1 again.
	_, lists, err = c.ServerGroupsAndResources()
	if err != nil {
		t.Fatalf("second call: %v", err)
	}
	if got := fmt.Sprint(groupVersions(lists)); got != "[apps/v1 apps/v1beta2 v1]" {
		t.Errorf("results after retry = %s", got)
	}
	if got := s.Count("/apis/apps/v1"); got != 3 {
		t.Errorf("/apis/apps/v1 fetched %d times, want 3", got)
	}
	if got := s.Count("/apis"); got != 1 {
		t.Errorf("/apis fetched %d times, want 1: only the failed group-version is retried", got)
	}
}

func TestPermanentFailureStaysCached(t *testing.T) {
	groups := append(apiservertest.CoreAndApps(), apiservertest.Group{
		Name: "metrics.k8s.io", Versions: []apiservertest.Version{{Version: "v1beta1"}},
	})
	s := apiservertest.New(t, false, groups)
	c := newClient(t, s)
	for i := 0; i < 2; i++ {
		_, _, err := c.ServerGroupsAndResources()
		failed, ok := discovery.GroupDiscoveryFailedErrorGroups(err)
		if !ok || failed[schema.GroupVersion{Group: "metrics.k8s.io", Version: "v1beta1"}] == nil {
			t.Fatalf("call %d: err = %v, want metrics.k8s.io/v1beta1 reported as failed (empty)", i, err)
		}
	}
	if got := s.Count("/apis/metrics.k8s.io/v1beta1"); got != 1 {
		t.Errorf("empty group-version fetched %d times, want 1 (not retried)", got)
	}
}

func TestGroupListFailureIsReturned(t *testing.T) {
	s := apiservertest.New(t, false, apiservertest.CoreAndApps())
	s.Fail("/apis", 1)
	c := newClient(t, s)
	if _, err := c.ServerGroups(); !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("err = %v, want 503", err)
	}
	if c.Fresh() {
		t.Error("Fresh() = true after a failed fetch")
	}
	if _, err := c.ServerGroups(); err != nil {
		t.Fatalf("second call: %v", err)
	}
}

func TestConcurrentCallersShareOneFetch(t *testing.T) {
	const callers = 8
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			s := apiservertest.New(t, f.aggregated, apiservertest.CoreAndApps())
			c := newClient(t, s)
			hold := s.HoldPath("/api")

			var started, done sync.WaitGroup
			errs := make(chan error, callers)
			for i := 0; i < callers; i++ {
				started.Add(1)
				done.Add(1)
				go func() {
					defer done.Done()
					started.Done()
					_, lists, err := c.ServerGroupsAndResources()
					if err == nil && len(lists) != 3 {
						err = fmt.Errorf("got %d resource lists, want 3", len(lists))
					}
					errs <- err
				}()
			}
			<-hold.Entered // one fetch is in flight
			started.Wait() // and every caller has been started
			hold.Release()
			done.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			for _, path := range []string{"/api", "/apis", "/api/v1"} {
				if f.aggregated && path == "/api/v1" {
					continue
				}
				if got := s.Count(path); got != 1 {
					t.Errorf("%s fetched %d times by %d concurrent callers, want 1", path, got, callers)
				}
			}
		})
	}
}

func TestOpenAPIV3CachedUntilInvalidate(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	c := newClient(t, s)

	read := func() {
		t.Helper()
		paths, err := c.OpenAPIV3().Paths()
		if err != nil {
			t.Fatal(err)
		}
		gv, ok := paths["apis/apps/v1"]
		if !ok {
			t.Fatalf("paths = %v, want apis/apps/v1", paths)
		}
		doc, err := gv.Schema("application/json")
		if err != nil {
			t.Fatal(err)
		}
		if len(doc) == 0 {
			t.Fatal("empty document")
		}
	}
	read()
	read()
	if got := s.Count("/openapi/v3"); got != 1 {
		t.Errorf("/openapi/v3 fetched %d times, want 1", got)
	}
	if got := s.Count("/openapi/v3/apis/apps/v1"); got != 1 {
		t.Errorf("apps/v1 document fetched %d times, want 1", got)
	}
	c.Invalidate()
	read()
	if got := s.Count("/openapi/v3"); got != 2 {
		t.Errorf("/openapi/v3 fetched %d times after Invalidate, want 2", got)
	}
}

func TestInvalidatePropagatesToCachedDelegate(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	inner := newClient(t, s)
	outer := memory.NewMemCacheClient(inner)
	if _, err := outer.ServerGroups(); err != nil {
		t.Fatal(err)
	}
	s.SetGroups(append(apiservertest.CoreAndApps(), apiservertest.CronTabCRD()))
	outer.Invalidate()
	if inner.Fresh() {
		t.Fatal("the inner cache was not invalidated")
	}
	groups, err := outer.ServerGroups()
	if err != nil {
		t.Fatal(err)
	}
	if len(groups.Groups) != 3 {
		t.Errorf("got %d groups after Invalidate, want 3 (with the CRD)", len(groups.Groups))
	}
}

func TestPassThroughAndWithLegacy(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	c := newClient(t, s)
	v, err := c.ServerVersion()
	if err != nil || v.GitVersion != "v1.37.2" {
		t.Errorf("ServerVersion = %v, %v", v, err)
	}
	if c.WithLegacy() != discovery.DiscoveryInterface(c) {
		t.Error("WithLegacy did not return the cache itself")
	}
	if c.RESTClient() == nil {
		t.Error("RESTClient() = nil")
	}
}

func TestWithContextFlavour(t *testing.T) {
	s := apiservertest.New(t, true, apiservertest.CoreAndApps())
	dc, err := discovery.NewDiscoveryClientForConfig(s.Config())
	if err != nil {
		t.Fatal(err)
	}
	c := memory.NewMemCacheClientWithContext(dc)
	ctx := context.Background()
	if _, _, err := c.ServerGroupsAndResourcesWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	if !c.FreshWithContext(ctx) {
		t.Error("not fresh after fetch")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	c.InvalidateWithContext(ctx)
	if _, err := c.ServerGroupsWithContext(cancelled); err == nil {
		t.Error("fetch with a cancelled context succeeded")
	}
	if _, err := c.ServerGroupsWithContext(ctx); err != nil {
		t.Errorf("fetch after a cancelled one: %v", err)
	}
}

func TestStaleAggregatedGroupVersionReported(t *testing.T) {
	groups := append(apiservertest.CoreAndApps(), apiservertest.Group{
		Name: "metrics.k8s.io", Versions: []apiservertest.Version{{Version: "v1beta1", Stale: true, Resources: []apiservertest.Resource{
			{Name: "nodes", Singular: "node", Kind: "NodeMetrics"},
		}}},
	})
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			s := apiservertest.New(t, f.aggregated, groups)
			c := newClient(t, s)
			metrics := schema.GroupVersion{Group: "metrics.k8s.io", Version: "v1beta1"}
			for i := 0; i < 2; i++ {
				_, lists, err := c.ServerGroupsAndResources()
				failed, ok := discovery.GroupDiscoveryFailedErrorGroups(err)
				if !ok || failed[metrics] == nil || len(failed) != 1 {
					t.Fatalf("call %d: err = %v, want only metrics.k8s.io/v1beta1 failed", i, err)
				}
				if len(lists) != 3 {
					t.Errorf("call %d: %d resource lists next to the failure, want 3", i, len(lists))
				}
			}
			if _, err := c.ServerResourcesForGroupVersion("metrics.k8s.io/v1beta1"); err == nil {
				t.Error("the stale group-version has resources")
			}
			if f.aggregated && s.Count("/apis") != 1 {
				t.Errorf("/apis fetched %d times, want 1: stale versions are not retried", s.Count("/apis"))
			}
		})
	}
}

func TestNilDelegateIsAnError(t *testing.T) {
	c := memory.NewMemCacheClient(nil)
	if _, _, err := c.ServerGroupsAndResources(); err == nil {
		t.Error("ServerGroupsAndResources without a delegate succeeded")
	}
	if _, err := c.ServerVersion(); err == nil {
		t.Error("ServerVersion without a delegate succeeded")
	}
	if c.RESTClient() != nil {
		t.Error("RESTClient() without a delegate is not nil")
	}
	if _, err := c.OpenAPIV3().Paths(); err == nil {
		t.Error("OpenAPIV3().Paths() without a delegate succeeded")
	}
}
