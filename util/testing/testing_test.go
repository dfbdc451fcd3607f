package testing

import (
	"bytes"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	openapi_v3 "github.com/google/gnostic-models/openapiv3"
	"google.golang.org/protobuf/proto"
)

// recorder is a TestInterface that keeps what it is told.
type recorder struct{ errors, logs []string }

func (r *recorder) Errorf(format string, args ...interface{}) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...interface{}) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func TestFakeHandler(t *testing.T) {
	status := `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`
	handler := &FakeHandler{StatusCode: http.StatusNotFound, ResponseBody: status, T: t,
		SkipRequestFn: func(verb string, u url.URL) bool { return u.Path == "/healthz" }}
	server := httptest.NewServer(handler)
	defer server.Close()

	if _, err := http.Get(server.URL + "/healthz"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(server.URL+"/api/v1/namespaces/default/pods?dryRun=All", "application/json", strings.NewReader(`{"kind":"Pod"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || string(body) != status || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("response %d %q %v", resp.StatusCode, body, resp.Header)
	}

	want := `{"kind":"Pod"}`
	handler.ValidateRequest(t, "/api/v1/namespaces/default/pods?dryRun=All", http.MethodPost, &want)

	rec := &recorder{}
	other := `{}`
	handler.ValidateRequest(rec, "/api/v1/pods?watch=true", http.MethodGet, &other)
	if len(rec.errors) != 4 {
		t.Errorf("mismatched path, query, method and body gave %d errors: %q", len(rec.errors), rec.errors)
	}
	if handler.ValidateRequestCount(rec, 2) {
		t.Error("ValidateRequestCount(2) passed after one request")
	}

	handler.SetResponseBody("changed")
	if handler.ResponseBody != "changed" {
		t.Error("SetResponseBody did not change the body")
	}
}

func TestFakeHandlerPanicsAfterCheck(t *testing.T) {
	handler := &FakeHandler{StatusCode: http.StatusOK}
	handler.ValidateRequestCount(&recorder{}, 0)
	defer func() {
		if recover() == nil {
			t.Error("a request after validation did not panic")
		}
	}()
	handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
}

func TestTmpdirAndCloseAndRemove(t *testing.T) {
	dir, err := MkTmpdir("utiltesting-")
	if err != nil || !strings.Contains(filepath.Base(dir), "utiltesting-") {
		t.Fatalf("MkTmpdir = %q, %v", dir, err)
	}
	defer os.RemoveAll(dir)
	dir2 := MkTmpdirOrDie("utiltesting-")
	defer os.RemoveAll(dir2)
	if dir2 == dir {
		t.Fatal("two temporary directories share a path")
	}
	f, err := os.Create(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	CloseAndRemove(t, f, nil)
	if _, err := os.Stat(f.Name()); !os.IsNotExist(err) {
		t.Fatalf("file still there: %v", err)
	}
	if _, err := MkTmpdir("bad/prefix/"); err == nil {
		t.Error("MkTmpdir accepted a prefix with a separator")
	}
}

func TestFakeOpenAPIV3Server(t *testing.T) {
	dir := t.TempDir()
	doc := `{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.37.2"},"paths":{"/apis/apps/v1/deployments":{}}}`
	if err := os.MkdirAll(filepath.Join(dir, "apis", "apps"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "apis", "apps", "v1.json"), []byte(doc), 0o644)
	os.WriteFile(filepath.Join(dir, "api", "README"), nil, 0o644)

	srv, err := NewFakeOpenAPIV3Server(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.HttpServer.Close()
	if d := srv.ServedDocuments["apis/apps/v1"]; d == nil || d.Info.Title != "Kubernetes" {
		t.Fatalf("served documents %v", srv.ServedDocuments)
	}

	resp, err := http.Get(srv.HttpServer.URL + "/openapi/v3")
	if err != nil {
		t.Fatal(err)
	}
	var discovery struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	err = json.NewDecoder(resp.Body).Decode(&discovery)
	resp.Body.Close()
	rel := discovery.Paths["apis/apps/v1"].ServerRelativeURL
	if err != nil || !strings.HasPrefix(rel, "/openapi/v3/apis/apps/v1?hash=") {
		t.Fatalf("discovery %+v, %v", discovery, err)
	}
	resp, err = http.Get(srv.HttpServer.URL + rel)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "/apis/apps/v1/deployments") {
		t.Fatalf("document %d %s", resp.StatusCode, body)
	}
	if resp, _ := http.Get(srv.HttpServer.URL + "/openapi/v3/apis/nope/v1"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown group version answered %d", resp.StatusCode)
	}
	if srv.RequestCounters["/openapi/v3"] != 1 || srv.RequestCounters["/openapi/v3/apis/apps/v1"] != 1 {
		t.Errorf("request counters %v", srv.RequestCounters)
	}

	os.WriteFile(filepath.Join(dir, "apis", "broken.json"), []byte("{"), 0o644)
	if _, err := NewFakeOpenAPIV3Server(dir); err == nil || !strings.Contains(err.Error(), "broken.json") {
		t.Errorf("broken document error = %v", err)
	}
}

func TestFakeOpenAPIV3ServerContentNegotiation(t *testing.T) {
	dir := t.TempDir()
	doc := `{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.37.2"},"paths":{"/api/v1/pods":{}}}`
	if err := os.MkdirAll(filepath.Join(dir, "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "api", "v1.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := NewFakeOpenAPIV3Server(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.HttpServer.Close()

	jsonBody, err := json.Marshal(srv.ServedDocuments["api/v1"])
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := openapi_v3.ParseDocument(jsonBody)
	if err != nil {
		t.Fatal(err)
	}
	protoBody, err := proto.Marshal(parsed)
	if err != nil {
		t.Fatal(err)
	}

	hash := fmt.Sprintf("%X", sha512.Sum512(jsonBody))
	const pbDeprecated = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf"
	const pb = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf"
	tests := []struct {
		accept      string
		query       string
		ifNoneMatch bool
		wantStatus  int
		wantType    string
		wantProto   bool
		wantCached  bool
	}{
		{accept: "", wantStatus: http.StatusOK, wantType: "application/json"},
		{accept: "application/json", wantStatus: http.StatusOK, wantType: "application/json"},
		{accept: "*/*", wantStatus: http.StatusOK, wantType: "application/json"},
		{accept: pbDeprecated, wantStatus: http.StatusOK, wantType: pb, wantProto: true},
		{accept: pb + ", application/json", wantStatus: http.StatusOK, wantType: pb, wantProto: true},
		{accept: "application/json;q=0.5, " + pb, wantStatus: http.StatusOK, wantType: pb, wantProto: true},
		{accept: "application/yaml", wantStatus: http.StatusNotAcceptable},
		{accept: pb, query: "?hash=" + hash, wantStatus: http.StatusOK, wantType: pb, wantProto: true, wantCached: true},
		{accept: "application/json", query: "?hash=" + hash, ifNoneMatch: true, wantStatus: http.StatusNotModified},
	}
	for _, tc := range tests {
		t.Run(tc.accept+tc.query, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.HttpServer.URL+"/openapi/v3/api/v1"+tc.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			if tc.ifNoneMatch {
				req.Header.Set("If-None-Match", strconv.Quote(hash))
			}
			resp, err := srv.HttpServer.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			if tc.wantStatus != http.StatusOK {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tc.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tc.wantType)
			}
			if got := resp.Header.Get("Etag"); got != strconv.Quote(hash) {
				t.Errorf("Etag = %q, want %q", got, strconv.Quote(hash))
			}
			if got := resp.Header.Get("Cache-Control"); (got == "public, immutable") != tc.wantCached {
				t.Errorf("Cache-Control = %q, want immutable caching %v", got, tc.wantCached)
			}
			want := jsonBody
			if tc.wantProto {
				want = protoBody
			}
			if !bytes.Equal(body, want) {
				t.Errorf("body = %q, want %q", body, want)
			}
		})
	}
}

// TestValidateRequestLogsCount: more than one request is logged, not an
// error; the last request is the one validated.
func TestValidateRequestLogsCount(t *testing.T) {
	handler := &FakeHandler{StatusCode: http.StatusOK}
	for _, path := range []string{"/first", "/second"} {
		handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	rec := &recorder{}
	handler.ValidateRequest(rec, "/second", http.MethodGet, nil)
	if len(rec.errors) != 0 || len(rec.logs) != 1 {
		t.Errorf("errors %q, logs %q; want no error and one log line", rec.errors, rec.logs)
	}
}
