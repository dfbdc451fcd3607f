// Package dynamicclients tests the untyped clients against a real
// kube-apiserver: the dynamic client on a CustomResourceDefinition and its
// custom resources, the deferred discovery RESTMapper, the metadata informer,
// the scale client and the OpenAPI v3 client.
package dynamicclients

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/dynamic"
	"github.com/kubeclient/client-go/test/integration/framework"
)

var controlPlane *framework.ControlPlane

func TestMain(m *testing.M) { framework.RunMain(m, &controlPlane) }

// crdResource is the resource of CustomResourceDefinitions themselves.
var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// waitTimeout bounds every poll for the server to converge.
const waitTimeout = 30 * time.Second

func newDynamic(t *testing.T) *dynamic.DynamicClient {
	t.Helper()
	client, err := dynamic.NewForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("dynamic.NewForConfig: %v", err)
	}
	return client
}

func newDiscovery(t *testing.T) *discovery.DiscoveryClient {
	t.Helper()
	client, err := discovery.NewDiscoveryClientForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("NewDiscoveryClientForConfig: %v", err)
	}
	return client
}

// crdSpec names one namespaced CustomResourceDefinition with a status
// subresource.
type crdSpec struct {
	group, kind, plural, singular, shortName string
}

func (s crdSpec) resource() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: s.group, Version: "v1", Resource: s.plural}
}

func (s crdSpec) object() *unstructured.Unstructured {
	schemaProps := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"spec": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"cronSpec": map[string]any{"type": "string"},
					"image":    map[string]any{"type": "string"},
					"replicas": map[string]any{"type": "integer"},
				},
			},
			"status": map[string]any{
				"type":                                 "object",
				"x-kubernetes-preserve-unknown-fields": true,
			},
		},
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": s.plural + "." + s.group},
		"spec": map[string]any{
			"group": s.group,
			"scope": "Namespaced",
			"names": map[string]any{
				"plural":     s.plural,
				"singular":   s.singular,
				"kind":       s.kind,
				"shortNames": []any{s.shortName},
			},
			"versions": []any{map[string]any{
				"name":         "v1",
				"served":       true,
				"storage":      true,
				"schema":       map[string]any{"openAPIV3Schema": schemaProps},
				"subresources": map[string]any{"status": map[string]any{}},
			}},
		},
	}}
}

// createCRD creates the definition through the dynamic client, waits until
// the server reports it Established and deletes it when the test ends.
func createCRD(t *testing.T, client dynamic.Interface, s crdSpec) {
	t.Helper()
	ctx := context.Background()
	crds := client.Resource(crdResource)
	created, err := crds.Create(ctx, s.object(), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating CRD %s: %v", s.plural, err)
	}
	if created.GetUID() == "" || created.GetKind() != "CustomResourceDefinition" {
		t.Fatalf("Create returned %v", created.Object)
	}
	name := created.GetName()
	t.Cleanup(func() {
		if err := crds.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting CRD %s: %v", name, err)
		}
	})
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, waitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		// status.conditions is null until the server fills it in.
		conditions, _, _ := unstructured.NestedFieldNoCopy(got.Object, "status", "conditions")
		list, _ := conditions.([]any)
		for _, c := range list {
			cond, _ := c.(map[string]any)
			if cond["type"] == "Established" && cond["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("waiting for CRD %s to be Established: %v", name, err)
	}
}
