package discovery_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/openapi/cached"
	"github.com/kubeclient/client-go/openapi3"
)

var metricsGV = schema.GroupVersion{Group: "metrics.k8s.io", Version: "v1beta1"}

// allResources is every "groupVersion:resource" the cluster serves, minus the
// unavailable metrics group, in group and version order.
var allResources = []string{
	"v1:pods", "v1:pods/status", "v1:pods/log", "v1:namespaces", "v1:configmaps",
	"apps/v1:deployments", "apps/v1:deployments/scale",
	"batch/v1:jobs", "batch/v1:cronjobs",
	"batch/v1beta1:cronjobs", "batch/v1beta1:jobtemplates",
}

func newClient(t *testing.T, s *apiServer) *discovery.DiscoveryClient {
	t.Helper()
	c, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatalf("NewDiscoveryClientForConfig: %v", err)
	}
	return c
}

func groupNames(groups []*metav1.APIGroup) []string {
	var names []string
	for _, g := range groups {
		names = append(names, g.Name)
	}
	return names
}

func TestServerGroupsAndResources(t *testing.T) {
	tests := []struct {
		name       string
		legacyOnly bool
		legacyMode bool // use WithLegacy on the client
		// wantGroups lists the groups, in order.
		wantGroups []string
		// wantPerGVRequests is whether /apis/apps/v1 must have been fetched.
		wantPerGVRequests bool
		wantAccept        string
		// wantFailure checks the cause reported for metrics.k8s.io/v1beta1.
		wantFailure func(error) bool
	}{
		{
			name:       "aggregated",
			wantGroups: []string{"", "apps", "batch", "metrics.k8s.io"},
			wantAccept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
			wantFailure: func(err error) bool {
				var stale discovery.StaleGroupVersionError
				return errors.As(err, &stale) && err.Error() == "stale GroupVersion discovery: metrics.k8s.io/v1beta1"
			},
		},
		{
			name:              "server without aggregated discovery",
			legacyOnly:        true,
			wantGroups:        []string{"", "apps", "batch", "metrics.k8s.io"},
			wantPerGVRequests: true,
			wantAccept:        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
			wantFailure:       apierrors.IsServiceUnavailable,
		},
		{
			name:              "client restricted to legacy discovery",
			legacyMode:        true,
			wantGroups:        []string{"", "apps", "batch", "metrics.k8s.io"},
			wantPerGVRequests: true,
			wantAccept:        "application/json",
			wantFailure:       apierrors.IsServiceUnavailable,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newAPIServer(t, func(s *apiServer) { s.legacyOnly = tc.legacyOnly })
			var d discovery.DiscoveryInterface = newClient(t, s)
			if tc.legacyMode {
				d = d.WithLegacy()
			}
			groups, lists, err := d.ServerGroupsAndResources()

			if !discovery.IsGroupDiscoveryFailedError(err) {
				t.Fatalf("error = %v, want ErrGroupDiscoveryFailed", err)
			}
			failed, _ := discovery.GroupDiscoveryFailedErrorGroups(err)
			if len(failed) != 1 || !tc.wantFailure(failed[metricsGV]) {
				t.Errorf("failed group versions = %v, want only %v with the expected cause", failed, metricsGV)
			}
			if got := groupNames(groups); !slices.Equal(got, tc.wantGroups) {
				t.Errorf("groups = %q, want %q", got, tc.wantGroups)
			}
			if got := resourceNames(lists); !slices.Equal(got, allResources) {
				t.Errorf("resources = %q\nwant %q", got, allResources)
			}
			if got := s.count("/apis/apps/v1") > 0; got != tc.wantPerGVRequests {
				t.Errorf("fetched /apis/apps/v1: %v, want %v", got, tc.wantPerGVRequests)
			}
			for _, p := range []string{"/api", "/apis"} {
				if got := s.lastAccept(p); got != tc.wantAccept {
					t.Errorf("Accept of %s = %q, want %q", p, got, tc.wantAccept)
				}
			}
		})
	}
}

func TestAggregatedResourceDetails(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	groups, byGV, failed, err := d.GroupsAndMaybeResources()
	if err != nil {
		t.Fatalf("GroupsAndMaybeResources: %v", err)
	}
	if _, ok := failed[metricsGV]; !ok || len(failed) != 1 {
		t.Errorf("failed = %v, want only %v", failed, metricsGV)
	}
	// The stale version is left out of its group.
	metrics := groups.Groups[3]
	if metrics.Name != "metrics.k8s.io" || len(metrics.Versions) != 0 {
		t.Errorf("metrics group = %+v, want it listed without versions", metrics)
	}
	batch := groups.Groups[2]
	wantBatch := metav1.APIGroup{
		Name: "batch",
		Versions: []metav1.GroupVersionForDiscovery{
			{GroupVersion: "batch/v1", Version: "v1"}, {GroupVersion: "batch/v1beta1", Version: "v1beta1"},
		},
		PreferredVersion: metav1.GroupVersionForDiscovery{GroupVersion: "batch/v1", Version: "v1"},
	}
	if !reflect.DeepEqual(batch, wantBatch) {
		t.Errorf("batch group = %+v\nwant %+v", batch, wantBatch)
	}
	core := byGV[schema.GroupVersion{Version: "v1"}]
	if core == nil || core.GroupVersion != "v1" {
		t.Fatalf("core resources = %+v", core)
	}
	wantStatus := metav1.APIResource{
		Name: "pods/status", SingularName: "pod", Namespaced: true, Version: "v1", Kind: "Pod",
		Verbs: metav1.Verbs{"get", "patch", "update"},
	}
	if got := core.APIResources[1]; !reflect.DeepEqual(got, wantStatus) {
		t.Errorf("pods/status = %+v\nwant %+v", got, wantStatus)
	}
	ns := core.APIResources[3]
	if ns.Name != "namespaces" || ns.Namespaced || !slices.Equal(ns.ShortNames, []string{"ns"}) {
		t.Errorf("namespaces = %+v, want cluster scoped with short name ns", ns)
	}
	scale := byGV[schema.GroupVersion{Group: "apps", Version: "v1"}].APIResources[1]
	if scale.Name != "deployments/scale" || scale.Kind != "Scale" || scale.Group != "apps" {
		t.Errorf("deployments/scale = %+v", scale)
	}
}

func TestNoPeerDiscoveryAcceptHeader(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	d.NoPeerDiscovery = true
	if _, err := d.ServerGroups(); err != nil {
		t.Fatalf("ServerGroups: %v", err)
	}
	want := "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;profile=nopeer," +
		"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
	if got := s.lastAccept("/apis"); got != want {
		t.Errorf("Accept = %q, want %q", got, want)
	}
}

func TestCoreGroupNotServed(t *testing.T) {
	for _, legacyOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacyOnly=%v", legacyOnly), func(t *testing.T) {
			s := newAPIServer(t, func(s *apiServer) { s.legacyOnly = legacyOnly; s.coreNotFound = true })
			d := newClient(t, s)
			groups, err := d.ServerGroups()
			if err != nil {
				t.Fatalf("ServerGroups: %v", err)
			}
			var names []string
			for _, g := range groups.Groups {
				names = append(names, g.Name)
			}
			if want := []string{"apps", "batch", "metrics.k8s.io"}; !slices.Equal(names, want) {
				t.Errorf("groups = %q, want %q", names, want)
			}
			// With /api missing, resources come from /apis alone: aggregated
			// when it is, fetched per group-version when it is not.
			_, lists, _ := d.ServerGroupsAndResources()
			if got, want := resourceNames(lists), allResources[5:]; !slices.Equal(got, want) {
				t.Errorf("resources = %q\nwant %q", got, want)
			}
			if got := s.count("/apis/apps/v1") > 0; got != legacyOnly {
				t.Errorf("fetched /apis/apps/v1: %v, want %v", got, legacyOnly)
			}
			// A 404 for core v1 is an empty list, not an error.
			list, err := d.ServerResourcesForGroupVersion("v1")
			if err != nil || list.GroupVersion != "v1" || len(list.APIResources) != 0 {
				t.Errorf("ServerResourcesForGroupVersion(v1) = %+v, %v; want an empty v1 list", list, err)
			}
		})
	}
}

func TestServerGroupsFailure(t *testing.T) {
	s := newAPIServer(t, func(s *apiServer) { s.failuresLeft["/apis"] = -1 })
	d := newClient(t, s)
	if groups, err := d.ServerGroups(); !apierrors.IsServiceUnavailable(err) || groups != nil {
		t.Errorf("ServerGroups = %v, %v; want nil and a 503 status error", groups, err)
	}
	groups, lists, err := d.ServerGroupsAndResources()
	if !apierrors.IsServiceUnavailable(err) || groups != nil || lists != nil {
		t.Errorf("ServerGroupsAndResources = %v, %v, %v; want no results and a 503 status error", groups, lists, err)
	}
	if discovery.IsGroupDiscoveryFailedError(err) {
		t.Errorf("a failed group listing must not be reported as partial discovery")
	}
}

func TestPartialFailuresAreRetriedOnce(t *testing.T) {
	tests := []struct {
		name         string
		failures     int
		wantErr      bool
		wantRequests int
	}{
		{name: "transient", failures: 1, wantErr: false, wantRequests: 2},
		{name: "persistent", failures: -1, wantErr: true, wantRequests: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newAPIServer(t, func(s *apiServer) {
				s.legacyOnly = true
				delete(s.failuresLeft, "/apis/metrics.k8s.io/v1beta1")
				s.failuresLeft["/apis/apps/v1"] = tc.failures
			})
			d := newClient(t, s)
			// Hide metrics.k8s.io's own failure by asking for preferred resources
			// of a cluster where only apps/v1 misbehaves.
			lists, err := d.ServerPreferredResources()
			if gotErr := err != nil; gotErr != tc.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tc.wantErr)
			}
			if tc.wantErr && !discovery.IsGroupDiscoveryFailedError(err) {
				t.Errorf("error = %v, want ErrGroupDiscoveryFailed", err)
			}
			if got := s.count("/apis/apps/v1"); got != tc.wantRequests {
				t.Errorf("requests for /apis/apps/v1 = %d, want %d", got, tc.wantRequests)
			}
			if len(lists) == 0 {
				t.Errorf("no partial results returned")
			}
		})
	}
}

func TestServerPreferredResources(t *testing.T) {
	want := []string{
		"v1:pods", "v1:namespaces", "v1:configmaps",
		"apps/v1:deployments",
		"batch/v1:jobs", "batch/v1:cronjobs",
		"batch/v1beta1:jobtemplates",
	}
	wantNamespaced := []string{"v1:pods", "v1:configmaps", "apps/v1:deployments", "batch/v1:jobs", "batch/v1:cronjobs"}
	for _, legacyOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacyOnly=%v", legacyOnly), func(t *testing.T) {
			s := newAPIServer(t, func(s *apiServer) { s.legacyOnly = legacyOnly })
			d := newClient(t, s)

			lists, err := d.ServerPreferredResources()
			if !discovery.IsGroupDiscoveryFailedError(err) {
				t.Errorf("error = %v, want ErrGroupDiscoveryFailed for metrics", err)
			}
			if got := resourceNames(lists); !slices.Equal(got, want) {
				t.Errorf("preferred resources = %q\nwant %q", got, want)
			}

			lists, err = d.ServerPreferredNamespacedResources()
			if !discovery.IsGroupDiscoveryFailedError(err) {
				t.Errorf("error = %v, want ErrGroupDiscoveryFailed for metrics", err)
			}
			if got := resourceNames(lists); !slices.Equal(got, wantNamespaced) {
				t.Errorf("preferred namespaced resources = %q\nwant %q", got, wantNamespaced)
			}
		})
	}
}

func TestServerResourcesForGroupVersion(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	tests := []struct {
		groupVersion string
		wantPath     string
		wantNames    []string
		wantErr      func(error) bool
	}{
		{groupVersion: "v1", wantPath: "/api/v1", wantNames: []string{"pods", "pods/status", "pods/log", "namespaces", "configmaps"}},
		{groupVersion: "apps/v1", wantPath: "/apis/apps/v1", wantNames: []string{"deployments", "deployments/scale"}},
		{groupVersion: "example.com/v1", wantPath: "/apis/example.com/v1", wantErr: apierrors.IsNotFound},
		{groupVersion: "metrics.k8s.io/v1beta1", wantPath: "/apis/metrics.k8s.io/v1beta1", wantErr: apierrors.IsServiceUnavailable},
		{groupVersion: "", wantErr: func(err error) bool { return err != nil && err.Error() == "groupVersion shouldn't be empty" }},
	}
	for _, tc := range tests {
		t.Run(tc.groupVersion, func(t *testing.T) {
			list, err := d.ServerResourcesForGroupVersionWithContext(context.Background(), tc.groupVersion)
			if tc.wantErr != nil {
				if !tc.wantErr(err) || list != nil {
					t.Fatalf("got %v, %v; want nil and the expected error", list, err)
				}
			} else {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				var names []string
				for _, r := range list.APIResources {
					names = append(names, r.Name)
				}
				if list.GroupVersion != tc.groupVersion || !slices.Equal(names, tc.wantNames) {
					t.Errorf("list = %s %q, want %s %q", list.GroupVersion, names, tc.groupVersion, tc.wantNames)
				}
			}
			if tc.wantPath != "" && s.count(tc.wantPath) != 1 {
				t.Errorf("%s requested %d times, want 1", tc.wantPath, s.count(tc.wantPath))
			}
		})
	}
}

func TestServerVersion(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	got, err := d.ServerVersion()
	if err != nil {
		t.Fatalf("ServerVersion: %v", err)
	}
	if *got != serverVersion {
		t.Errorf("ServerVersion = %+v, want %+v", *got, serverVersion)
	}
	if err := discovery.MatchesServerVersion(serverVersion, d); err != nil {
		t.Errorf("MatchesServerVersion(same) = %v", err)
	}
	other := serverVersion
	other.GitCommit = "fedcba"
	if err := discovery.MatchesServerVersion(other, d); err == nil {
		t.Errorf("MatchesServerVersion(different commit) = nil, want an error")
	}

	broken := newAPIServer(t, func(s *apiServer) { s.failuresLeft["/version"] = -1 })
	if _, err := newClient(t, broken).ServerVersion(); !apierrors.IsServiceUnavailable(err) {
		t.Errorf("ServerVersion on failing server = %v, want 503 status error", err)
	}
}

func TestOpenAPISchema(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	doc, err := d.OpenAPISchema()
	if err != nil {
		t.Fatalf("OpenAPISchema: %v", err)
	}
	if doc.Swagger != "2.0" || doc.Info.GetTitle() != "Kubernetes" {
		t.Errorf("document header = %q %q", doc.Swagger, doc.Info.GetTitle())
	}
	paths := doc.GetPaths().GetPath()
	if len(paths) != 1 || paths[0].Name != "/api/v1/namespaces" || paths[0].Value.GetGet().GetOperationId() != "listCoreV1Namespace" {
		t.Errorf("paths = %v", paths)
	}
	if got, want := s.lastAccept("/openapi/v2"), "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"; got != want {
		t.Errorf("Accept = %q, want %q", got, want)
	}
}

func TestOpenAPIV3(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	paths, err := d.OpenAPIV3().Paths()
	if err != nil {
		t.Fatalf("Paths: %v", err)
	}
	gv, ok := paths["apis/apps/v1"]
	if !ok || len(paths) != 2 {
		t.Fatalf("paths = %v, want api/v1 and apis/apps/v1", paths)
	}
	if got, want := gv.ServerRelativeURL(), "/openapi/v3/apis/apps/v1?hash=B81E22"; got != want {
		t.Errorf("ServerRelativeURL = %q, want %q", got, want)
	}
	body, err := gv.Schema("application/json")
	if err != nil {
		t.Fatalf("Schema: %v", err)
	}
	if string(body) != openAPIV3Docs["apis/apps/v1"].body {
		t.Errorf("Schema body = %s", body)
	}
	if got, _ := url.ParseQuery(s.lastQuery("/openapi/v3/apis/apps/v1")); got.Get("hash") != "B81E22" {
		t.Errorf("query = %q, want the hash", got)
	}
	if got := s.lastAccept("/openapi/v3/apis/apps/v1"); got != "application/json" {
		t.Errorf("Accept = %q, want application/json", got)
	}

	withCtx, err := d.OpenAPIV3WithContext(context.Background()).PathsWithContext(context.Background())
	if err != nil || len(withCtx) != 2 {
		t.Fatalf("PathsWithContext = %v, %v", withCtx, err)
	}
	if _, err := withCtx["api/v1"].SchemaWithContext(context.Background(), "application/json"); err != nil {
		t.Errorf("SchemaWithContext: %v", err)
	}
}

func TestOpenAPIV3RootOverCachedClient(t *testing.T) {
	s := newAPIServer(t, nil)
	root := openapi3.NewRoot(cached.NewClient(newClient(t, s).OpenAPIV3()))
	gvs, err := root.GroupVersions()
	if err != nil {
		t.Fatalf("GroupVersions: %v", err)
	}
	if want := []schema.GroupVersion{{Group: "apps", Version: "v1"}, {Version: "v1"}}; !reflect.DeepEqual(gvs, want) {
		t.Errorf("GroupVersions = %v, want %v", gvs, want)
	}
	for range 2 {
		spec, err := root.GVSpec(schema.GroupVersion{Group: "apps", Version: "v1"})
		if err != nil {
			t.Fatalf("GVSpec: %v", err)
		}
		d, ok := spec.Components.Schemas["io.k8s.api.apps.v1.Deployment"]
		if !ok || d.Description != "Deployment enables declarative updates." {
			t.Errorf("Deployment schema = %+v", d)
		}
	}
	if n := s.count("/openapi/v3/apis/apps/v1"); n != 1 {
		t.Errorf("apps/v1 document downloaded %d times through the cache, want 1", n)
	}
	if n := s.count("/openapi/v3"); n != 1 {
		t.Errorf("root document downloaded %d times through the cache, want 1", n)
	}
}

func TestNewDiscoveryClientForConfigAndClient(t *testing.T) {
	s := newAPIServer(t, nil)
	calls := 0
	httpClient := &http.Client{Transport: roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		calls++
		return http.DefaultTransport.RoundTrip(r)
	})}
	d, err := discovery.NewDiscoveryClientForConfigAndClient(s.config(), httpClient)
	if err != nil {
		t.Fatalf("NewDiscoveryClientForConfigAndClient: %v", err)
	}
	if _, err := d.ServerVersion(); err != nil {
		t.Fatalf("ServerVersion: %v", err)
	}
	if calls != 1 {
		t.Errorf("the given http.Client carried %d requests, want 1", calls)
	}
	if d.RESTClient() == nil || d.LegacyPrefix != "/api" || d.UseLegacyDiscovery {
		t.Errorf("client fields = %+v", d)
	}
	legacy := d.WithLegacy().(*discovery.DiscoveryClient)
	if !legacy.UseLegacyDiscovery || d.UseLegacyDiscovery {
		t.Errorf("WithLegacy must set UseLegacyDiscovery on a copy only")
	}
	var nilClient *discovery.DiscoveryClient
	if nilClient.RESTClient() != nil {
		t.Errorf("RESTClient of a nil client must be nil")
	}
	if d := discovery.NewDiscoveryClientForConfigOrDie(s.config()); d == nil {
		t.Errorf("NewDiscoveryClientForConfigOrDie returned nil")
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// legacyOnlyDiscovery exposes only DiscoveryInterface, hiding the aggregated
// and context-aware methods of the client it wraps.
type legacyOnlyDiscovery struct {
	discovery.DiscoveryInterface
}

func TestPackageFunctionsOverPlainInterface(t *testing.T) {
	// Against an aggregated server ServerGroups would drop the stale metrics
	// version; a legacy server lists it and then fails to serve it.
	s := newAPIServer(t, func(s *apiServer) { s.legacyOnly = true })
	d := legacyOnlyDiscovery{newClient(t, s)}

	groups, lists, err := discovery.ServerGroupsAndResources(d)
	if !discovery.IsGroupDiscoveryFailedError(err) {
		t.Errorf("error = %v, want ErrGroupDiscoveryFailed", err)
	}
	if len(groups) != 4 || !slices.Equal(resourceNames(lists), allResources) {
		t.Errorf("groups = %q, resources = %q", groupNames(groups), resourceNames(lists))
	}
	if s.count("/apis/apps/v1") == 0 {
		t.Errorf("without GroupsAndMaybeResources the resources must be fetched per group-version")
	}

	if err := discovery.ServerSupportsVersion(d, schema.GroupVersion{Group: "apps", Version: "v1"}); err != nil {
		t.Errorf("ServerSupportsVersion(apps/v1) = %v", err)
	}
	if err := discovery.ServerSupportsVersion(d, schema.GroupVersion{Group: "apps", Version: "v2"}); err == nil {
		t.Errorf("ServerSupportsVersion(apps/v2) = nil, want an error")
	}
	for gvr, want := range map[schema.GroupVersionResource]bool{
		{Group: "apps", Version: "v1", Resource: "deployments"}:    true,
		{Group: "apps", Version: "v1", Resource: "statefulsets"}:   false,
		{Group: "example.com", Version: "v1", Resource: "widgets"}: false,
	} {
		got, err := discovery.IsResourceEnabled(d, gvr)
		if err != nil || got != want {
			t.Errorf("IsResourceEnabled(%v) = %v, %v; want %v", gvr, got, err, want)
		}
	}
	if _, err := discovery.IsResourceEnabled(d, metricsGV.WithResource("nodes")); !apierrors.IsServiceUnavailable(err) {
		t.Errorf("IsResourceEnabled on a failing group = %v, want the 503 error", err)
	}

	withCtx := discovery.ToDiscoveryInterfaceWithContext(d)
	if _, ok := withCtx.(discovery.AggregatedDiscoveryInterfaceWithContext); ok {
		t.Errorf("the adapter must not claim aggregated discovery")
	}
	v, err := withCtx.ServerVersionWithContext(context.Background())
	if err != nil || v.GitVersion != "v1.37.2" {
		t.Errorf("ServerVersionWithContext through adapter = %v, %v", v, err)
	}
	if withCtx.RESTClient() == nil {
		t.Errorf("adapter RESTClient = nil")
	}
	if legacy, ok := withCtx.WithLegacyWithContext(context.Background()).(*discovery.DiscoveryClient); !ok || !legacy.UseLegacyDiscovery {
		t.Errorf("WithLegacyWithContext through adapter = %T", legacy)
	}
}

func TestCancelledContext(t *testing.T) {
	s := newAPIServer(t, nil)
	d := newClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := d.ServerGroupsAndResourcesWithContext(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("ServerGroupsAndResourcesWithContext = %v, want context.Canceled", err)
	}
	if _, err := d.ServerPreferredResourcesWithContext(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("ServerPreferredResourcesWithContext = %v, want context.Canceled", err)
	}
	if n := s.count("/apis"); n != 0 {
		t.Errorf("%d requests sent with a cancelled context", n)
	}
}
