package openapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/kubeclient/client-go/openapi"
	"github.com/kubeclient/client-go/openapi/openapitest"
	"github.com/kubeclient/client-go/rest"
)

// v3Server serves an OpenAPI v3 root document listing the given
// serverRelativeURLs and answers every other GET with the request URI it
// saw, so tests can check where documents were fetched from.
type v3Server struct {
	*httptest.Server

	mu      sync.Mutex
	seen    []string // request URIs, in order
	accepts []string // Accept headers, in order
}

func newV3Server(t *testing.T, rootPath string, listing map[string]string) *v3Server {
	t.Helper()
	s := &v3Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.URL.Path+"?"+r.URL.Query().Get("hash"))
		s.accepts = append(s.accepts, r.Header.Get("Accept"))
		s.mu.Unlock()
		if r.URL.Path == rootPath {
			paths := map[string]any{}
			for p, u := range listing {
				paths[p] = map[string]string{"serverRelativeURL": u}
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"paths": paths})
			return
		}
		if strings.Contains(r.URL.Path, "missing") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"not found"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"openapi":"3.0.0","info":{"title":"` + r.URL.Path + `","version":"` + r.URL.Query().Get("hash") + `"}}`))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *v3Server) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func restClientFor(t *testing.T, host string) rest.Interface {
	t.Helper()
	c, err := rest.UnversionedRESTClientFor(&rest.Config{
		Host:          host,
		ContentConfig: rest.ContentConfig{NegotiatedSerializer: serializer.NewCodecFactory(runtime.NewScheme()).WithoutConversion()},
	})
	if err != nil {
		t.Fatalf("UnversionedRESTClientFor: %v", err)
	}
	return c
}

func TestClientPathsAndSchema(t *testing.T) {
	tests := []struct {
		name     string
		hostPath string // path prefix of the client's base URL
		listed   string // serverRelativeURL listed by the server
		wantURL  string // ServerRelativeURL reported by the client
		wantSeen string // path?hash the document is fetched from
	}{
		{name: "plain", listed: "/openapi/v3/apis/apps/v1?hash=AB12", wantURL: "/openapi/v3/apis/apps/v1?hash=AB12", wantSeen: "/openapi/v3/apis/apps/v1?AB12"},
		{name: "proxied server unaware of prefix", hostPath: "/proxy/c1", listed: "/openapi/v3/apis/apps/v1?hash=AB12", wantURL: "/openapi/v3/apis/apps/v1?hash=AB12", wantSeen: "/proxy/c1/openapi/v3/apis/apps/v1?AB12"},
		{name: "proxied server echoing prefix", hostPath: "/proxy/c1", listed: "/proxy/c1/openapi/v3/apis/apps/v1?hash=AB12", wantURL: "/openapi/v3/apis/apps/v1?hash=AB12", wantSeen: "/proxy/c1/openapi/v3/apis/apps/v1?AB12"},
		{name: "URL outside /openapi/v3 kept whole", hostPath: "/proxy/c1", listed: "/elsewhere/apps?hash=AB12", wantURL: "/elsewhere/apps?hash=AB12", wantSeen: "/proxy/c1/elsewhere/apps?AB12"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newV3Server(t, tc.hostPath+"/openapi/v3", map[string]string{"apis/apps/v1": tc.listed})
			client := openapi.NewClient(restClientFor(t, s.URL+tc.hostPath))
			paths, err := client.Paths()
			if err != nil {
				t.Fatalf("Paths: %v", err)
			}
			gv, ok := paths["apis/apps/v1"]
			if !ok || len(paths) != 1 {
				t.Fatalf("paths = %v", paths)
			}
			if got := gv.ServerRelativeURL(); got != tc.wantURL {
				t.Errorf("ServerRelativeURL = %q, want %q", got, tc.wantURL)
			}
			body, err := gv.Schema(openapi.ContentTypeOpenAPIV3PB)
			if err != nil {
				t.Fatalf("Schema: %v", err)
			}
			if !strings.Contains(string(body), `"version":"AB12"`) {
				t.Errorf("body = %s", body)
			}
			seen := s.requests()
			if len(seen) != 2 || seen[1] != tc.wantSeen {
				t.Errorf("requests = %q, want the document fetched from %q", seen, tc.wantSeen)
			}
			if s.accepts[1] != openapi.ContentTypeOpenAPIV3PB {
				t.Errorf("Accept = %q, want %q", s.accepts[1], openapi.ContentTypeOpenAPIV3PB)
			}
		})
	}
}

func TestClientErrors(t *testing.T) {
	s := newV3Server(t, "/openapi/v3", map[string]string{"api/v1": "/openapi/v3/missing?hash=1"})
	client := openapi.NewClientWithContext(restClientFor(t, s.URL))
	paths, err := client.PathsWithContext(context.Background())
	if err != nil {
		t.Fatalf("PathsWithContext: %v", err)
	}
	if _, err := paths["api/v1"].SchemaWithContext(context.Background(), "application/json"); err == nil {
		t.Errorf("a 404 document must be an error")
	}

	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>login required</html>"))
	}))
	defer html.Close()
	if _, err := openapi.NewClient(restClientFor(t, html.URL)).Paths(); err == nil || !strings.Contains(err.Error(), "/openapi/v3") {
		t.Errorf("a root document that is not JSON must be an error naming /openapi/v3, got %v", err)
	}

	down := newV3Server(t, "/elsewhere", nil)
	down.Close()
	if _, err := openapi.NewClient(restClientFor(t, down.URL)).Paths(); err == nil {
		t.Errorf("an unreachable server must be an error")
	}
}

func TestToClientWithContext(t *testing.T) {
	if openapi.ToClientWithContext(nil) != nil || openapi.ToGroupVersionWithContext(nil) != nil {
		t.Errorf("adapters of nil must return nil")
	}
	fake := openapitest.NewFakeClient()
	fake.PathsMap["api/v1"] = openapitest.FakeGroupVersion{GVSpec: []byte(`{"openapi":"3.0.0"}`)}
	paths, err := openapi.ToClientWithContext(fake).PathsWithContext(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	body, err := paths["api/v1"].SchemaWithContext(context.Background(), "application/json")
	if err != nil || string(body) != `{"openapi":"3.0.0"}` {
		t.Errorf("SchemaWithContext through adapter = %s, %v", body, err)
	}
	native := openapi.NewClientWithContext(nil)
	if openapi.ToClientWithContext(native.(openapi.Client)) != native {
		t.Errorf("a client implementing ClientWithContext must be returned unchanged")
	}
}

func TestNewTypeConverter(t *testing.T) {
	tc, err := openapi.NewTypeConverter(openapitest.NewEmbeddedFileClient(), false)
	if err != nil {
		t.Fatalf("NewTypeConverter: %v", err)
	}
	obj := &unstructuredDeployment{}
	typed, err := tc.ObjectToTyped(obj.build())
	if err != nil {
		t.Fatalf("ObjectToTyped(apps/v1 Deployment): %v", err)
	}
	if typed == nil {
		t.Fatalf("ObjectToTyped returned nil")
	}
	// A field the schema does not declare is rejected.
	bad := obj.build()
	bad.Object["spec"].(map[string]any)["bogus"] = int64(1)
	if _, err := tc.ObjectToTyped(bad); err == nil {
		t.Errorf("ObjectToTyped accepted an undeclared field")
	}

	failing := openapitest.NewFakeClient()
	failing.PathsMap["api/v1"] = openapitest.FakeGroupVersion{GVSpec: []byte("not json")}
	if _, err := openapi.NewTypeConverter(failing, false); err == nil {
		t.Errorf("NewTypeConverter accepted an unparsable document")
	}
}
