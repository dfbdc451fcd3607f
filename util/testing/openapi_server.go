package testing

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"k8s.io/kube-openapi/pkg/spec3"
)

// FakeOpenAPIServer serves OpenAPI v3 documents at /openapi/v3 the way a
// kube-apiserver does and counts the requests for each path.
type FakeOpenAPIServer struct {
	HttpServer      *httptest.Server
	ServedDocuments map[string]*spec3.OpenAPI
	RequestCounters map[string]int
}

// NewFakeOpenAPIV3Server starts a FakeOpenAPIServer for the documents under
// specsPath, one JSON file per group version: <specsPath>/apis/apps/v1.json
// is served as group version "apis/apps/v1". The caller closes HttpServer.
func NewFakeOpenAPIV3Server(specsPath string) (*FakeOpenAPIServer, error) {
	documents := map[string]*spec3.OpenAPI{}
	bodies := map[string][]byte{}
	discovery := discoveryDocument{Paths: map[string]discoveryEntry{}}
	err := filepath.WalkDir(specsPath, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		rel, err := filepath.Rel(specsPath, path)
		if err != nil {
			return err
		}
		gv := filepath.ToSlash(strings.TrimSuffix(rel, ".json"))
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc := &spec3.OpenAPI{}
		if err := json.Unmarshal(data, doc); err != nil {
			return fmt.Errorf("parse OpenAPI document %s: %w", path, err)
		}
		body, err := json.Marshal(doc)
		if err != nil {
			return fmt.Errorf("encode OpenAPI document %s: %w", path, err)
		}
		documents[gv] = doc
		bodies["/openapi/v3/"+gv] = body
		discovery.Paths[gv] = discoveryEntry{
			ServerRelativeURL: fmt.Sprintf("/openapi/v3/%s?hash=%X", gv, sha512.Sum512(body)),
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	discoveryBody, err := json.Marshal(discovery)
	if err != nil {
		return nil, err
	}

	server := &FakeOpenAPIServer{ServedDocuments: documents, RequestCounters: map[string]int{}}
	var mu sync.Mutex // guards RequestCounters while the server runs
	server.HttpServer = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		server.RequestCounters[r.URL.Path]++
		mu.Unlock()
		body, ok := bodies[r.URL.Path]
		if r.URL.Path == "/openapi/v3" {
			body, ok = discoveryBody, true
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	return server, nil
}

// discoveryDocument is the body of GET /openapi/v3: the URL of each group
// version's document, with a content hash for caching.
type discoveryDocument struct {
	Paths map[string]discoveryEntry `json:"paths"`
}

type discoveryEntry struct {
	ServerRelativeURL string `json:"serverRelativeURL"`
}
