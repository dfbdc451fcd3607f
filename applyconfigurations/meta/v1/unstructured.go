package v1

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/util/proto"

	"github.com/kubeclient/client-go/discovery"
)

// UnstructuredExtractor returns, as unstructured objects, the fields of an
// object that one field manager owns: what that manager would send to apply
// the object again. It works for any kind the server's OpenAPI schema knows,
// including custom resources.
type UnstructuredExtractor interface {
	Extract(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error)
	ExtractStatus(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error)
}

// NewUnstructuredExtractor returns an UnstructuredExtractor that reads the
// OpenAPI v2 schema through dc. The schema is fetched now and fetched again
// when an object of a kind it does not describe is extracted.
func NewUnstructuredExtractor(dc discovery.DiscoveryInterface) (UnstructuredExtractor, error) {
	e := &unstructuredExtractor{source: dc}
	if _, err := e.refresh(); err != nil {
		return nil, err
	}
	return e, nil
}

// unstructuredExtractor caches the schema parser built from the server's
// OpenAPI document.
type unstructuredExtractor struct {
	source discovery.OpenAPISchemaInterface

	mu     sync.Mutex // guards parser
	parser *managedfields.GvkParser
}

// refresh fetches the OpenAPI document and replaces the cached parser.
func (e *unstructuredExtractor) refresh() (*managedfields.GvkParser, error) {
	doc, err := e.source.OpenAPISchema()
	if err != nil {
		return nil, fmt.Errorf("fetching the OpenAPI schema: %w", err)
	}
	models, err := proto.NewOpenAPIData(doc)
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI schema: %w", err)
	}
	parser, err := managedfields.NewGVKParser(models, false)
	if err != nil {
		return nil, fmt.Errorf("building the schema parser: %w", err)
	}
	e.mu.Lock()
	e.parser = parser
	e.mu.Unlock()
	return parser, nil
}

// Extract returns the fields of object that fieldManager owns through the
// main resource.
func (e *unstructuredExtractor) Extract(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error) {
	return e.extract(object, fieldManager, "")
}

// ExtractStatus returns the fields of object that fieldManager owns through
// the status subresource.
func (e *unstructuredExtractor) ExtractStatus(object *unstructured.Unstructured, fieldManager string) (*unstructured.Unstructured, error) {
	return e.extract(object, fieldManager, "status")
}

func (e *unstructuredExtractor) extract(object *unstructured.Unstructured, fieldManager, subresource string) (*unstructured.Unstructured, error) {
	if object == nil {
		return nil, fmt.Errorf("cannot extract from a nil object")
	}
	gvk := object.GroupVersionKind()
	e.mu.Lock()
	parser := e.parser
	e.mu.Unlock()
	objectType := parser.Type(gvk)
	if objectType == nil {
		// The kind may be new (a CRD installed later): look again.
		var err error
		if parser, err = e.refresh(); err != nil {
			return nil, err
		}
		if objectType = parser.Type(gvk); objectType == nil {
			return nil, fmt.Errorf("the server's OpenAPI schema does not describe %v", gvk)
		}
	}
	result := &unstructured.Unstructured{Object: map[string]interface{}{}}
	if err := managedfields.ExtractInto(object, *objectType, fieldManager, &result.Object, subresource); err != nil {
		return nil, fmt.Errorf("extracting the fields of %s owned by %q: %w", describe(gvk, object), fieldManager, err)
	}
	result.SetName(object.GetName())
	result.SetNamespace(object.GetNamespace())
	result.SetGroupVersionKind(gvk)
	return result, nil
}

func describe(gvk schema.GroupVersionKind, object *unstructured.Unstructured) string {
	if ns := object.GetNamespace(); ns != "" {
		return fmt.Sprintf("%s %s/%s", gvk.Kind, ns, object.GetName())
	}
	return fmt.Sprintf("%s %s", gvk.Kind, object.GetName())
}
