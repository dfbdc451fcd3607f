package openapitest_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/kubeclient/client-go/openapi"
	"github.com/kubeclient/client-go/openapi/openapitest"
)

func sortedKeys(m map[string]openapi.GroupVersion) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestEmbeddedFileClient(t *testing.T) {
	paths, err := openapitest.NewEmbeddedFileClient().Paths()
	if err != nil {
		t.Fatalf("Paths: %v", err)
	}
	if got, want := sortedKeys(paths), []string{"api/v1", "apis/apps/v1", "apis/batch/v1", "apis/discovery.k8s.io/v1", "apis/networking.k8s.io/v1alpha1"}; !slices.Equal(got, want) {
		t.Fatalf("paths = %q, want %q", got, want)
	}
	for path, gv := range paths {
		body, err := gv.Schema("application/json")
		if err != nil {
			t.Fatalf("Schema(%s): %v", path, err)
		}
		var doc struct {
			OpenAPI    string `json:"openapi"`
			Components struct {
				Schemas map[string]json.RawMessage `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(body, &doc); err != nil || doc.OpenAPI != "3.0.0" || len(doc.Components.Schemas) == 0 {
			t.Errorf("%s is not an OpenAPI v3 document with schemas: %v", path, err)
		}
		if _, err := gv.Schema(openapi.ContentTypeOpenAPIV3PB); err == nil {
			t.Errorf("Schema(protobuf) of %s = nil error, want unsupported content type", path)
		}
	}
	if got := paths["apis/apps/v1"].ServerRelativeURL(); got != "apis__apps__v1_openapi.json" {
		t.Errorf("ServerRelativeURL = %q", got)
	}
}

func TestFileClient(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"apis__example.com__v1_openapi.json": `{"openapi":"3.0.0"}`,
		"README.md":                          "not a document",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := openapitest.NewFileClient(dir).Paths()
	if err != nil {
		t.Fatalf("Paths: %v", err)
	}
	if got := sortedKeys(paths); !slices.Equal(got, []string{"apis/example.com/v1"}) {
		t.Fatalf("paths = %q", got)
	}
	body, err := paths["apis/example.com/v1"].Schema("application/json")
	if err != nil || string(body) != `{"openapi":"3.0.0"}` {
		t.Errorf("Schema = %s, %v", body, err)
	}

	if _, err := openapitest.NewFileClient(filepath.Join(dir, "absent")).Paths(); err == nil {
		t.Errorf("Paths of a missing directory = nil error")
	}
}

func TestFakeClient(t *testing.T) {
	fake := openapitest.NewFakeClient()
	fake.PathsMap["api/v1"] = openapitest.FakeGroupVersion{GVSpec: []byte(`{}`)}
	paths, err := fake.Paths()
	if err != nil || len(paths) != 1 {
		t.Fatalf("Paths = %v, %v", paths, err)
	}
	if body, err := paths["api/v1"].Schema("application/json"); err != nil || string(body) != "{}" {
		t.Errorf("Schema = %s, %v", body, err)
	}
	if _, err := paths["api/v1"].Schema("application/yaml"); err == nil {
		t.Errorf("Schema(yaml) = nil error")
	}
	if body, err := (openapitest.FakeGroupVersion{}).Schema("application/json"); err != nil || body == nil || len(body) != 0 {
		t.Errorf("unset GVSpec = %v, %v; want an empty slice", body, err)
	}
	if url := (openapitest.FakeGroupVersion{}).ServerRelativeURL(); url != "" {
		t.Errorf("ServerRelativeURL = %q", url)
	}

	boom := errors.New("boom")
	if _, err := (openapitest.FakeGroupVersion{ForcedErr: boom}).Schema("application/json"); !errors.Is(err, boom) {
		t.Errorf("ForcedErr not returned by Schema: %v", err)
	}
	fake.ForcedErr = boom
	if _, err := fake.Paths(); !errors.Is(err, boom) {
		t.Errorf("ForcedErr not returned by Paths: %v", err)
	}
	if paths, err := (openapitest.FakeClient{}).Paths(); err != nil || paths == nil {
		t.Errorf("zero FakeClient Paths = %v, %v; want an empty map", paths, err)
	}
}
