package discovery

import (
	"context"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/cached/memory"
	"github.com/kubeclient/client-go/dynamic"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// widgetCRD is a namespaced CustomResourceDefinition of group
// discovery.kubeclient.test served at v1 and v2; v2 is the preferred version
// because it sorts first in Kubernetes version priority.
func widgetCRD() *unstructured.Unstructured {
	version := func(name string, storage bool) map[string]any {
		return map[string]any{
			"name":    name,
			"served":  true,
			"storage": storage,
			"schema": map[string]any{"openAPIV3Schema": map[string]any{
				"type":                                 "object",
				"x-kubernetes-preserve-unknown-fields": true,
			}},
			"subresources": map[string]any{"status": map[string]any{}},
		}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "widgets.discovery.kubeclient.test"},
		"spec": map[string]any{
			"group": "discovery.kubeclient.test",
			"scope": "Namespaced",
			"names": map[string]any{
				"plural":     "widgets",
				"singular":   "widget",
				"kind":       "Widget",
				"shortNames": []any{"wdg"},
				"categories": []any{"all"},
			},
			"versions": []any{version("v1", false), version("v2", true)},
		},
	}}
}

// widgetsServed reports whether client's discovery lists the widgets
// resource and its status subresource in both versions, with v2 preferred.
func widgetsServed(client discovery.DiscoveryInterface) (bool, error) {
	groups, lists, err := client.ServerGroupsAndResources()
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return false, err
	}
	group := slices.IndexFunc(groups, func(g *metav1.APIGroup) bool { return g.Name == "discovery.kubeclient.test" })
	if group < 0 || groups[group].PreferredVersion.Version != "v2" || len(groups[group].Versions) != 2 {
		return false, nil
	}
	for _, gv := range []string{"discovery.kubeclient.test/v1", "discovery.kubeclient.test/v2"} {
		i := slices.IndexFunc(lists, func(l *metav1.APIResourceList) bool { return l.GroupVersion == gv })
		if i < 0 {
			return false, nil
		}
		var main, status bool
		for _, r := range lists[i].APIResources {
			switch r.Name {
			case "widgets":
				main = r.Kind == "Widget" && r.Namespaced && slices.Contains(r.ShortNames, "wdg") &&
					slices.Contains(r.Categories, "all") && slices.Contains([]string(r.Verbs), "watch")
			case "widgets/status":
				status = slices.Contains([]string(r.Verbs), "patch")
			}
		}
		if !main || !status {
			return false, nil
		}
	}
	return true, nil
}

// TestCustomResourceInDiscovery creates a CustomResourceDefinition and
// waits until aggregated discovery, legacy discovery and a memory-cached
// client after Invalidate all serve it, then deletes it and waits until
// none does.
func TestCustomResourceInDiscovery(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dyn, err := dynamic.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("dynamic.NewForConfig: %v", err)
	}
	aggregated, legacy := newClients(t)
	cached := memory.NewMemCacheClient(aggregatedClient(t))
	// Fill the cache before the CRD exists: it must not see the CRD until
	// Invalidate.
	if served, err := widgetsServed(cached); err != nil || served {
		t.Fatalf("before the CRD: cached discovery serves widgets=%v, err %v", served, err)
	}

	crds := dyn.Resource(crdResource)
	if _, err := crds.Create(ctx, widgetCRD(), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating the CRD: %v", err)
	}
	deleted := false
	defer func() {
		if !deleted {
			crds.Delete(context.Background(), "widgets.discovery.kubeclient.test", metav1.DeleteOptions{})
		}
	}()

	clients := []struct {
		name   string
		client discovery.DiscoveryInterface
	}{
		{"aggregated", aggregated},
		{"legacy", legacy},
		{"memory-cached", cached},
	}
	waitFor := func(want bool) {
		t.Helper()
		for _, c := range clients {
			err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
				if c.name == "memory-cached" {
					cached.Invalidate()
				}
				served, err := widgetsServed(c.client)
				return served == want, err
			})
			if err != nil {
				t.Fatalf("%s discovery: waiting for widgets served=%v: %v", c.name, want, err)
			}
		}
	}
	waitFor(true)

	// The memory cache keeps what it has until invalidated, even after
	// the CRD is gone.
	if err := crds.Delete(ctx, "widgets.discovery.kubeclient.test", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting the CRD: %v", err)
	}
	deleted = true
	if served, err := widgetsServed(cached); err != nil || !served {
		t.Errorf("right after the delete, without Invalidate: cached discovery serves widgets=%v, err %v; want the cached answer", served, err)
	}
	waitFor(false)
}

func aggregatedClient(t *testing.T) *discovery.DiscoveryClient {
	t.Helper()
	client, _ := newClients(t)
	return client
}
