package restmapper_test

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/cached/memory"
	"github.com/kubeclient/client-go/restmapper"
)

// shortcutFixture is a shortcut expander over a discovery RESTMapper of
// groups, with the warnings it emitted.
func shortcutFixture(t *testing.T, groups []testGroup) (meta.RESTMapper, *[]string) {
	t.Helper()
	s := newDiscoveryServer(t, groups)
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	cached := memory.NewMemCacheClient(dc)
	grs, err := restmapper.GetAPIGroupResources(cached)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	return restmapper.NewShortcutExpander(restmapper.NewDiscoveryRESTMapper(grs), cached, func(w string) {
		warnings = append(warnings, w)
	}), &warnings
}

func TestShortcutExpansion(t *testing.T) {
	// Two CRD groups declare "ct"; the first listed wins, with a warning.
	m, warnings := shortcutFixture(t, append(cluster(), cronTabGroup("stable.example.com"), cronTabGroup("other.example.com")))
	tests := []struct {
		in   schema.GroupVersionResource
		want schema.GroupVersionResource
	}{
		{schema.GroupVersionResource{Resource: "deploy"}, schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}},
		{schema.GroupVersionResource{Resource: "po"}, schema.GroupVersionResource{Version: "v1", Resource: "pods"}},
		{schema.GroupVersionResource{Resource: "hpa"}, schema.GroupVersionResource{Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers"}},
		{schema.GroupVersionResource{Group: "apps", Resource: "deploy"}, schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}},
		// A group prefix completes the group of a short name.
		{schema.GroupVersionResource{Group: "autoscal", Resource: "hpa"}, schema.GroupVersionResource{Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers"}},
		// Full names are not expanded.
		{schema.GroupVersionResource{Resource: "services"}, schema.GroupVersionResource{Version: "v1", Resource: "services"}},
		{schema.GroupVersionResource{Resource: "ct"}, schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}},
		{schema.GroupVersionResource{Group: "other.example.com", Resource: "ct"}, schema.GroupVersionResource{Group: "other.example.com", Version: "v1", Resource: "crontabs"}},
	}
	for _, tc := range tests {
		got, err := m.ResourceFor(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ResourceFor(%v) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	wantWarning := `short name "ct" could also match lower priority resource crontabs.other.example.com`
	if len(*warnings) == 0 || (*warnings)[0] != wantWarning {
		t.Errorf("warnings = %q, want %q", *warnings, wantWarning)
	}
	for _, w := range *warnings {
		if w != wantWarning {
			t.Errorf("unexpected warning %q (deploy in two versions of apps is not ambiguous)", w)
		}
	}

	gvk, err := m.KindFor(schema.GroupVersionResource{Resource: "deploy"})
	if err != nil || gvk.Kind != "Deployment" {
		t.Errorf("KindFor(deploy) = %v, %v", gvk, err)
	}
	gvks, err := m.KindsFor(schema.GroupVersionResource{Resource: "deploy"})
	if err != nil || len(gvks) != 2 {
		t.Errorf("KindsFor(deploy) = %v, %v; want both apps versions", gvks, err)
	}
	gvrs, err := m.ResourcesFor(schema.GroupVersionResource{Resource: "svc"})
	if err != nil || len(gvrs) != 1 || gvrs[0].Resource != "services" {
		t.Errorf("ResourcesFor(svc) = %v, %v", gvrs, err)
	}
	if singular, err := m.ResourceSingularizer("deploy"); err != nil || singular != "deployment" {
		t.Errorf("ResourceSingularizer(deploy) = %q, %v", singular, err)
	}
	if mapping, err := m.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}); err != nil || mapping.Resource.Resource != "deployments" {
		t.Errorf("RESTMapping = %v, %v", mapping, err)
	}
	if mappings, err := m.RESTMappings(schema.GroupKind{Group: "apps", Kind: "Deployment"}); err != nil || len(mappings) != 2 {
		t.Errorf("RESTMappings = %v, %v", mappings, err)
	}
}

func TestShortcutExpanderFindsNewCRDThroughDeferredMapper(t *testing.T) {
	s := newDiscoveryServer(t, cluster())
	cached := staleDiskClient(t, s) // misses the CronTab CRD, not fresh
	m := restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(cached), cached, nil)
	gvk, err := m.KindFor(schema.GroupVersionResource{Resource: "ct"})
	if err != nil {
		t.Fatalf("KindFor(ct): %v", err)
	}
	if gvk.Kind != "CronTab" {
		t.Errorf("KindFor(ct) = %v", gvk)
	}
}

func TestShortcutExpanderWithContextAndReset(t *testing.T) {
	s := newDiscoveryServer(t, cluster())
	dc, err := discovery.NewDiscoveryClientForConfig(s.config())
	if err != nil {
		t.Fatal(err)
	}
	cached := memory.NewMemCacheClientWithContext(dc)
	deferred := restmapper.NewDeferredDiscoveryRESTMapperWithContext(cached)
	m := restmapper.NewShortcutExpanderWithContext(deferred, cached, nil)
	ctx := context.Background()
	gvr, err := m.ResourceForWithContext(ctx, schema.GroupVersionResource{Resource: "ns"})
	if err != nil || gvr.Resource != "namespaces" {
		t.Fatalf("ResourceForWithContext(ns) = %v, %v", gvr, err)
	}
	resettable, ok := m.(meta.ResettableRESTMapperWithContext)
	if !ok {
		t.Fatal("the expander is not resettable")
	}
	resettable.ResetWithContext(ctx)
	if cached.FreshWithContext(ctx) {
		t.Error("Reset was not passed on to the deferred mapper")
	}
}
