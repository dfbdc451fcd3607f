package v1_test

import (
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	applymetav1 "github.com/kubeclient/client-go/applyconfigurations/meta/v1"
	"github.com/kubeclient/client-go/discovery"
)

// swagger describes one custom kind, example.com/v1 Widget, whose spec has
// two fields.
const swagger = `{
  "swagger": "2.0",
  "info": {"title": "test", "version": "v1"},
  "paths": {},
  "definitions": {
    "com.example.v1.Widget": {
      "type": "object",
      "x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "Widget", "version": "v1"}],
      "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
        "spec": {"type": "object", "properties": {"size": {"type": "integer"}, "color": {"type": "string"}}}
      }
    },
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
      "type": "object",
      "properties": {
        "name": {"type": "string"},
        "namespace": {"type": "string"},
        "managedFields": {"type": "array", "items": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry"}}
      }
    },
    "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry": {
      "type": "object",
      "properties": {
        "manager": {"type": "string"}, "operation": {"type": "string"}, "apiVersion": {"type": "string"},
        "fieldsType": {"type": "string"}, "subresource": {"type": "string"},
        "fieldsV1": {"type": "object"}
      }
    }
  }
}`

// openAPIOnly is a discovery client that only serves the OpenAPI document;
// any other call panics through the nil embedded interface.
type openAPIOnly struct {
	discovery.DiscoveryInterface
	doc   *openapi_v2.Document
	calls int
}

func (o *openAPIOnly) OpenAPISchema() (*openapi_v2.Document, error) {
	o.calls++
	return o.doc, nil
}

func widget() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata": map[string]interface{}{
			"name": "w", "namespace": "ns",
			"managedFields": []interface{}{map[string]interface{}{
				"manager": "painter", "operation": "Apply", "apiVersion": "example.com/v1", "fieldsType": "FieldsV1",
				"fieldsV1": map[string]interface{}{"f:spec": map[string]interface{}{"f:color": map[string]interface{}{}}},
			}},
		},
		"spec": map[string]interface{}{"size": int64(3), "color": "red"},
	}}
}

func TestUnstructuredExtractor(t *testing.T) {
	doc, err := openapi_v2.ParseDocument([]byte(swagger))
	if err != nil {
		t.Fatal(err)
	}
	dc := &openAPIOnly{doc: doc}
	ex, err := applymetav1.NewUnstructuredExtractor(dc)
	if err != nil {
		t.Fatalf("NewUnstructuredExtractor: %v", err)
	}
	got, err := ex.Extract(widget(), "painter")
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	spec, _ := got.Object["spec"].(map[string]interface{})
	if spec["color"] != "red" || spec["size"] != nil {
		t.Errorf("Extract spec = %v, want only color", spec)
	}
	if got.GetName() != "w" || got.GetNamespace() != "ns" || got.GetKind() != "Widget" {
		t.Errorf("Extract identity = %s/%s %s", got.GetNamespace(), got.GetName(), got.GetKind())
	}

	unknown := widget()
	unknown.SetKind("Gizmo")
	calls := dc.calls
	if _, err := ex.Extract(unknown, "painter"); err == nil {
		t.Error("Extract of a kind the schema lacks succeeded")
	}
	if dc.calls != calls+1 {
		t.Errorf("an unknown kind should refetch the schema once; fetched %d times", dc.calls-calls)
	}
	if _, err := ex.ExtractStatus(nil, "painter"); err == nil {
		t.Error("ExtractStatus(nil) succeeded")
	}
}
