package dynamicclients

import (
	"encoding/json"
	"testing"
)

func TestOpenAPIV3AppsV1(t *testing.T) {
	paths, err := newDiscovery(t).OpenAPIV3().Paths()
	if err != nil {
		t.Fatalf("Paths: %v", err)
	}
	for _, p := range []string{"api/v1", "apis/apps/v1"} {
		if _, ok := paths[p]; !ok {
			t.Fatalf("Paths lacks %q", p)
		}
	}
	gv := paths["apis/apps/v1"]
	raw, err := gv.Schema("application/json")
	if err != nil {
		t.Fatalf("Schema: %v", err)
	}
	var doc struct {
		OpenAPI    string `json:"openapi"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("parsing apps/v1 document: %v", err)
	}
	if len(doc.OpenAPI) < 2 || doc.OpenAPI[:2] != "3." {
		t.Fatalf("openapi version %q", doc.OpenAPI)
	}
	if _, ok := doc.Components.Schemas["io.k8s.api.apps.v1.Deployment"]; !ok {
		t.Fatalf("apps/v1 schemas lack io.k8s.api.apps.v1.Deployment (%d schemas)", len(doc.Components.Schemas))
	}
	if _, ok := doc.Paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"]; !ok {
		t.Fatalf("apps/v1 paths lack the deployments scale path")
	}
	if gv.ServerRelativeURL() == "" {
		t.Fatalf("ServerRelativeURL is empty")
	}
}
