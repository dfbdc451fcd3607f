package dynamicclients

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/discovery/cached/memory"
	"github.com/kubeclient/client-go/restmapper"
)

func TestDeferredRESTMapperSeesNewCRDAfterReset(t *testing.T) {
	widgets := crdSpec{group: "mapper.example.com", kind: "Widget", plural: "widgets", singular: "widget", shortName: "wdg"}
	widgetKind := schema.GroupKind{Group: widgets.group, Kind: widgets.kind}
	dc := newDiscovery(t)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	expander := restmapper.NewShortcutExpander(mapper, dc, nil)

	// Filling the cache with a built-in kind.
	m, err := mapper.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "v1")
	if err != nil {
		t.Fatalf("RESTMapping Deployment: %v", err)
	}
	if m.Resource != (schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}) || m.Scope.Name() != meta.RESTScopeNameNamespace {
		t.Fatalf("Deployment mapping = %+v", m)
	}
	if _, err := mapper.RESTMapping(widgetKind, "v1"); !meta.IsNoMatchError(err) {
		t.Fatalf("RESTMapping before the CRD exists: want NoMatch, got %v", err)
	}

	createCRD(t, newDynamic(t), widgets)

	// The cache is fresh, so the mapper must not see the new kind yet.
	if _, err := mapper.RESTMapping(widgetKind, "v1"); !meta.IsNoMatchError(err) {
		t.Fatalf("RESTMapping with a stale cache: want NoMatch, got %v", err)
	}

	// After Reset it must; discovery may lag Established briefly.
	var mapping *meta.RESTMapping
	err = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, waitTimeout, true, func(context.Context) (bool, error) {
		mapper.Reset()
		mapping, err = mapper.RESTMapping(widgetKind, "v1")
		if meta.IsNoMatchError(err) {
			return false, nil
		}
		return err == nil, err
	})
	if err != nil {
		t.Fatalf("RESTMapping after Reset: %v", err)
	}
	if mapping.Resource != widgets.resource() || mapping.Scope.Name() != meta.RESTScopeNameNamespace ||
		mapping.GroupVersionKind != widgetKind.WithVersion("v1") {
		t.Fatalf("Widget mapping = %+v", mapping)
	}

	// The shortcut expander turns the short name into the plural resource.
	gvr, err := expander.ResourceFor(schema.GroupVersionResource{Resource: widgets.shortName})
	if err != nil {
		t.Fatalf("ResourceFor %q: %v", widgets.shortName, err)
	}
	if gvr != widgets.resource() {
		t.Fatalf("ResourceFor %q = %v, want %v", widgets.shortName, gvr, widgets.resource())
	}
	kinds, err := expander.KindsFor(schema.GroupVersionResource{Resource: widgets.singular})
	if err != nil || len(kinds) != 1 || kinds[0] != widgetKind.WithVersion("v1") {
		t.Fatalf("KindsFor %q = %v, %v", widgets.singular, kinds, err)
	}
}
