package openapi3_test

import (
	"errors"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/openapi"
	"github.com/kubeclient/client-go/openapi/openapitest"
	"github.com/kubeclient/client-go/openapi3"
)

func TestGroupVersions(t *testing.T) {
	fake := openapitest.NewFakeClient()
	for _, p := range []string{"apis/batch/v1", "api/v1", "apis/apps/v1", "version", "apis", "logs/x"} {
		fake.PathsMap[p] = openapitest.FakeGroupVersion{}
	}
	got, err := openapi3.NewRoot(fake).GroupVersions()
	if err != nil {
		t.Fatal(err)
	}
	want := []schema.GroupVersion{{Group: "apps", Version: "v1"}, {Group: "batch", Version: "v1"}, {Version: "v1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GroupVersions = %v, want %v", got, want)
	}

	fake.ForcedErr = errors.New("boom")
	if _, err := openapi3.NewRoot(fake).GroupVersions(); err == nil {
		t.Errorf("GroupVersions ignored the client error")
	}
}

func TestGVSpec(t *testing.T) {
	root := openapi3.NewRoot(openapitest.NewEmbeddedFileClient())
	apps := schema.GroupVersion{Group: "apps", Version: "v1"}
	spec, err := root.GVSpec(apps)
	if err != nil {
		t.Fatalf("GVSpec: %v", err)
	}
	deployment, ok := spec.Components.Schemas["io.k8s.api.apps.v1.Deployment"]
	if !ok {
		t.Fatalf("Deployment schema missing; schemas: %d", len(spec.Components.Schemas))
	}
	if _, ok := deployment.Properties["spec"]; !ok || spec.Info.Title != "Kubernetes" {
		t.Errorf("Deployment schema = %+v", deployment)
	}
	if _, ok := spec.Paths.Paths["/apis/apps/v1/namespaces/{namespace}/deployments"]; !ok {
		t.Errorf("deployments path missing")
	}

	asMap, err := root.GVSpecAsMap(schema.GroupVersion{Version: "v1"})
	if err != nil {
		t.Fatalf("GVSpecAsMap: %v", err)
	}
	schemas := asMap["components"].(map[string]interface{})["schemas"].(map[string]interface{})
	if _, ok := schemas["io.k8s.api.core.v1.ConfigMap"]; !ok {
		t.Errorf("ConfigMap missing from the core document")
	}

	missing := schema.GroupVersion{Group: "example.com", Version: "v1"}
	_, err = root.GVSpec(missing)
	var notFound *openapi3.GroupVersionNotFoundError
	if !errors.As(err, &notFound) || err.Error() != "GroupVersion (example.com/v1) not found as OpenAPI V3 path" {
		t.Errorf("GVSpec(missing) = %v, want GroupVersionNotFoundError", err)
	}
	if _, err := root.GVSpecAsMap(missing); !errors.As(err, &notFound) {
		t.Errorf("GVSpecAsMap(missing) = %v, want GroupVersionNotFoundError", err)
	}
}

func TestGVSpecErrors(t *testing.T) {
	gv := schema.GroupVersion{Group: "apps", Version: "v1"}
	boom := errors.New("download failed")
	tests := []struct {
		name string
		doc  openapi.GroupVersion
	}{
		{name: "download error", doc: openapitest.FakeGroupVersion{ForcedErr: boom}},
		{name: "not JSON", doc: openapitest.FakeGroupVersion{GVSpec: []byte("<html>")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := openapitest.NewFakeClient()
			fake.PathsMap["apis/apps/v1"] = tc.doc
			root := openapi3.NewRoot(fake)
			if _, err := root.GVSpec(gv); err == nil {
				t.Errorf("GVSpec = nil error")
			}
			if _, err := root.GVSpecAsMap(gv); err == nil {
				t.Errorf("GVSpecAsMap = nil error")
			}
		})
	}
}
