package openapi

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// NewTypeConverter builds a managedfields.TypeConverter from every schema in
// every OpenAPI v3 document client lists. preserveUnknownFields makes the
// converter keep fields the schemas do not declare.
func NewTypeConverter(client Client, preserveUnknownFields bool) (managedfields.TypeConverter, error) {
	paths, err := client.Paths()
	if err != nil {
		return nil, fmt.Errorf("listing OpenAPI v3 paths: %w", err)
	}
	schemas := map[string]*spec.Schema{}
	for path, gv := range paths {
		body, err := gv.Schema("application/json")
		if err != nil {
			return nil, fmt.Errorf("downloading OpenAPI v3 document %q: %w", path, err)
		}
		var doc spec3.OpenAPI
		if err := json.Unmarshal(body, &doc); err != nil {
			return nil, fmt.Errorf("parsing OpenAPI v3 document %q: %w", path, err)
		}
		if doc.Components == nil {
			continue
		}
		for name, s := range doc.Components.Schemas {
			schemas[name] = s
		}
	}
	return managedfields.NewTypeConverter(schemas, preserveUnknownFields)
}
