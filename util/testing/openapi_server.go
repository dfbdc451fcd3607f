package testing

import (
	"bytes"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	openapi_v3 "github.com/google/gnostic-models/openapiv3"
	"google.golang.org/protobuf/proto"
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
// is served as group version "apis/apps/v1". Documents are served as JSON,
// or as gnostic protobuf when the Accept header names the OpenAPI v3
// protobuf media type. As on a real server, a document requested through
// its hashed URL may be cached for good, and If-None-Match is answered with
// 304 Not Modified. The caller closes HttpServer.
func NewFakeOpenAPIV3Server(specsPath string) (*FakeOpenAPIServer, error) {
	documents := map[string]*spec3.OpenAPI{}
	bodies := map[string][]byte{}
	protoBodies := map[string][]byte{}
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
		pb, err := jsonToOpenAPIV3Proto(body)
		if err != nil {
			return fmt.Errorf("encode OpenAPI document %s as protobuf: %w", path, err)
		}
		documents[gv] = doc
		bodies["/openapi/v3/"+gv] = body
		protoBodies["/openapi/v3/"+gv] = pb
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
		if r.URL.Path == "/openapi/v3" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
			return
		}
		contentType, found := negotiateOpenAPIV3(r.Header.Get("Accept"))
		w.Header().Add("Vary", "Accept")
		if !found {
			http.Error(w, "no supported media type in Accept header", http.StatusNotAcceptable)
			return
		}
		etag := fmt.Sprintf("%X", sha512.Sum512(body))
		if contentType != "application/json" {
			body = protoBodies[r.URL.Path]
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Etag", strconv.Quote(etag))
		if hash := r.URL.Query().Get("hash"); hash != "" {
			if hash != etag {
				// A stale link: send the client to the current version.
				http.Redirect(w, r, r.URL.Path+"?hash="+etag, http.StatusMovedPermanently)
				return
			}
			// A versioned link never changes, so it may be cached for good.
			w.Header().Set("Cache-Control", "public, immutable")
			w.Header().Set("Expires", time.Now().AddDate(1, 0, 0).Format(time.RFC1123))
		}
		// ServeContent answers If-None-Match with 304 Not Modified.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	}))
	return server, nil
}

// openAPIV3ProtoType is the media type of the gnostic protobuf encoding of
// a group version document in responses.
const openAPIV3ProtoType = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf"

// openAPIV3ProtoTypes are the media types a client may ask for to get the
// gnostic protobuf encoding of a group version document.
var openAPIV3ProtoTypes = []string{
	"application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
	"application/com.github.proto-openapi.spec.v3.v1.0+protobuf",
}

// negotiateOpenAPIV3 picks the media type a group version document is
// served as for an Accept header, as the API server does: clauses are tried
// by descending quality, wildcards choose JSON, and either protobuf media
// type is answered with the current one. An empty header means JSON.
func negotiateOpenAPIV3(accept string) (string, bool) {
	if strings.TrimSpace(accept) == "" {
		accept = "*/*"
	}
	type clause struct {
		mediaType string
		q         float64
	}
	var clauses []clause
	for _, part := range strings.Split(accept, ",") {
		mediaType, params, _ := strings.Cut(part, ";")
		c := clause{mediaType: strings.TrimSpace(mediaType), q: 1}
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && k == "q" {
				if q, err := strconv.ParseFloat(v, 64); err == nil {
					c.q = q
				}
			}
		}
		if c.q > 0 {
			clauses = append(clauses, c)
		}
	}
	sort.SliceStable(clauses, func(i, j int) bool { return clauses[i].q > clauses[j].q })
	for _, c := range clauses {
		switch c.mediaType {
		case "application/json", "application/*", "*/*":
			return "application/json", true
		}
		for _, pb := range openAPIV3ProtoTypes {
			if c.mediaType == pb {
				return openAPIV3ProtoType, true
			}
		}
	}
	return "", false
}

// jsonToOpenAPIV3Proto re-encodes a JSON OpenAPI v3 document as the gnostic
// protobuf message a kube-apiserver serves.
func jsonToOpenAPIV3Proto(data []byte) ([]byte, error) {
	doc, err := openapi_v3.ParseDocument(data)
	if err != nil {
		return nil, err
	}
	return proto.Marshal(doc)
}

// discoveryDocument is the body of GET /openapi/v3: the URL of each group
// version's document, with a content hash for caching.
type discoveryDocument struct {
	Paths map[string]discoveryEntry `json:"paths"`
}

type discoveryEntry struct {
	ServerRelativeURL string `json:"serverRelativeURL"`
}
