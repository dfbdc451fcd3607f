package discovery_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
	apidiscovery "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	restclient "github.com/kubeclient/client-go/rest"
)

// The fake API server below serves the discovery endpoints of a small
// cluster in the wire formats of a real kube-apiserver.

type fakeSubresource struct {
	name, kind string
	verbs      []string
}

type fakeResource struct {
	name, singular, kind string
	namespaced           bool
	verbs                []string
	shortNames           []string
	subresources         []fakeSubresource
}

type fakeVersion struct {
	version   string
	resources []fakeResource
	// stale marks the version Stale in aggregated discovery; in legacy
	// discovery its resource endpoint answers 503.
	stale bool
}

type fakeGroup struct {
	name     string
	versions []fakeVersion // the first is preferred
}

var (
	crudVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	readVerbs = []string{"get", "list", "watch"}
)

// cluster is the content served: core v1, apps/v1, batch/v1 (preferred) and
// batch/v1beta1, and metrics.k8s.io/v1beta1 whose aggregated server is down.
var cluster = []fakeGroup{
	{name: "", versions: []fakeVersion{{version: "v1", resources: []fakeResource{
		{name: "pods", singular: "pod", kind: "Pod", namespaced: true, verbs: crudVerbs, shortNames: []string{"po"},
			subresources: []fakeSubresource{{name: "status", kind: "Pod", verbs: []string{"get", "patch", "update"}}, {name: "log", kind: "Pod", verbs: []string{"get"}}}},
		{name: "namespaces", singular: "namespace", kind: "Namespace", verbs: crudVerbs, shortNames: []string{"ns"}},
		{name: "configmaps", singular: "configmap", kind: "ConfigMap", namespaced: true, verbs: crudVerbs, shortNames: []string{"cm"}},
	}}}},
	{name: "apps", versions: []fakeVersion{{version: "v1", resources: []fakeResource{
		{name: "deployments", singular: "deployment", kind: "Deployment", namespaced: true, verbs: crudVerbs, shortNames: []string{"deploy"},
			subresources: []fakeSubresource{{name: "scale", kind: "Scale", verbs: []string{"get", "patch", "update"}}}},
	}}}},
	{name: "batch", versions: []fakeVersion{
		{version: "v1", resources: []fakeResource{
			{name: "jobs", singular: "job", kind: "Job", namespaced: true, verbs: crudVerbs},
			{name: "cronjobs", singular: "cronjob", kind: "CronJob", namespaced: true, verbs: crudVerbs, shortNames: []string{"cj"}},
		}},
		{version: "v1beta1", resources: []fakeResource{
			{name: "cronjobs", singular: "cronjob", kind: "CronJob", namespaced: true, verbs: crudVerbs},
			{name: "jobtemplates", singular: "jobtemplate", kind: "JobTemplate", verbs: readVerbs},
		}},
	}},
	{name: "metrics.k8s.io", versions: []fakeVersion{{version: "v1beta1", stale: true, resources: []fakeResource{
		{name: "nodes", singular: "", kind: "NodeMetrics", verbs: readVerbs},
	}}}},
}

// aggregatedContentType is what a kube-apiserver answers aggregated
// discovery with.
const aggregatedContentType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

func aggregatedGroup(g fakeGroup) apidiscovery.APIGroupDiscovery {
	out := apidiscovery.APIGroupDiscovery{ObjectMeta: metav1.ObjectMeta{Name: g.name}}
	for _, v := range g.versions {
		av := apidiscovery.APIVersionDiscovery{Version: v.version, Freshness: apidiscovery.DiscoveryFreshnessCurrent}
		if v.stale {
			av.Freshness = apidiscovery.DiscoveryFreshnessStale
		}
		for _, r := range v.resources {
			scope := apidiscovery.ScopeCluster
			if r.namespaced {
				scope = apidiscovery.ScopeNamespace
			}
			ar := apidiscovery.APIResourceDiscovery{
				Resource:         r.name,
				SingularResource: r.singular,
				ResponseKind:     &metav1.GroupVersionKind{Group: g.name, Version: v.version, Kind: r.kind},
				Scope:            scope,
				Verbs:            r.verbs,
				ShortNames:       r.shortNames,
			}
			for _, s := range r.subresources {
				ar.Subresources = append(ar.Subresources, apidiscovery.APISubresourceDiscovery{
					Subresource:  s.name,
					ResponseKind: &metav1.GroupVersionKind{Group: g.name, Version: v.version, Kind: s.kind},
					Verbs:        s.verbs,
				})
			}
			av.Resources = append(av.Resources, ar)
		}
		out.Versions = append(out.Versions, av)
	}
	return out
}

func aggregatedList(groups []fakeGroup) apidiscovery.APIGroupDiscoveryList {
	list := apidiscovery.APIGroupDiscoveryList{TypeMeta: metav1.TypeMeta{APIVersion: "apidiscovery.k8s.io/v2", Kind: "APIGroupDiscoveryList"}}
	for _, g := range groups {
		list.Items = append(list.Items, aggregatedGroup(g))
	}
	return list
}

func legacyGroupList(groups []fakeGroup) metav1.APIGroupList {
	list := metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
	for _, g := range groups {
		ag := metav1.APIGroup{Name: g.name}
		for _, v := range g.versions {
			ag.Versions = append(ag.Versions, metav1.GroupVersionForDiscovery{GroupVersion: g.name + "/" + v.version, Version: v.version})
		}
		ag.PreferredVersion = ag.Versions[0]
		list.Groups = append(list.Groups, ag)
	}
	return list
}

func legacyResourceList(g fakeGroup, v fakeVersion) metav1.APIResourceList {
	gv := v.version
	if g.name != "" {
		gv = g.name + "/" + v.version
	}
	list := metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv}
	for _, r := range v.resources {
		list.APIResources = append(list.APIResources, metav1.APIResource{
			Name: r.name, SingularName: r.singular, Namespaced: r.namespaced, Kind: r.kind,
			Verbs: r.verbs, ShortNames: r.shortNames,
		})
		for _, s := range r.subresources {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: r.name + "/" + s.name, SingularName: r.singular, Namespaced: r.namespaced, Kind: s.kind, Verbs: s.verbs,
			})
		}
	}
	return list
}

var serverVersion = version.Info{
	Major: "1", Minor: "37", GitVersion: "v1.37.2", GitCommit: "0123456789abcdef0123456789abcdef01234567",
	GitTreeState: "clean", BuildDate: "2026-11-20T10:00:00Z", GoVersion: "go1.26.0", Compiler: "gc", Platform: "linux/amd64",
}

// openAPIV2Doc is the OpenAPI v2 document served in protobuf.
var openAPIV2Doc = &openapi_v2.Document{
	Swagger: "2.0",
	Info:    &openapi_v2.Info{Title: "Kubernetes", Version: "v1.37.2"},
	Paths: &openapi_v2.Paths{Path: []*openapi_v2.NamedPathItem{{
		Name: "/api/v1/namespaces",
		Value: &openapi_v2.PathItem{Get: &openapi_v2.Operation{
			OperationId: "listCoreV1Namespace",
			Responses: &openapi_v2.Responses{ResponseCode: []*openapi_v2.NamedResponseValue{{
				Name: "200",
				Value: &openapi_v2.ResponseValue{Oneof: &openapi_v2.ResponseValue_Response{
					Response: &openapi_v2.Response{Description: "OK"},
				}},
			}}},
		}},
	}}},
}

// openAPIV3Docs are the OpenAPI v3 documents, by root-document path, with
// the hash each is listed under.
var openAPIV3Docs = map[string]struct{ hash, body string }{
	"api/v1":       {hash: "7F3A0C", body: `{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.37.2"},"paths":{},"components":{"schemas":{"io.k8s.api.core.v1.ConfigMap":{"type":"object","description":"ConfigMap holds configuration data.","properties":{"data":{"type":"object","additionalProperties":{"type":"string"}}},"x-kubernetes-group-version-kind":[{"group":"","kind":"ConfigMap","version":"v1"}]}}}}`},
	"apis/apps/v1": {hash: "B81E22", body: `{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.37.2"},"paths":{},"components":{"schemas":{"io.k8s.api.apps.v1.Deployment":{"type":"object","description":"Deployment enables declarative updates.","x-kubernetes-group-version-kind":[{"group":"apps","kind":"Deployment","version":"v1"}]}}}}`},
}

// apiServer is an httptest server speaking discovery. Its request log is
// guarded by mu.
type apiServer struct {
	*httptest.Server
	t *testing.T
	// legacyOnly makes the server ignore the aggregated media type, like a
	// server predating aggregated discovery.
	legacyOnly bool
	// coreNotFound makes /api and /api/v1 answer 404, like an aggregated
	// API server that does not serve the core group.
	coreNotFound bool

	mu       sync.Mutex
	requests map[string]int    // path -> number of requests
	accept   map[string]string // path -> Accept header of the last request
	query    map[string]string // path -> raw query of the last request
	// failuresLeft counts, per path, the 503 answers still to give before
	// the path recovers; a negative count never recovers.
	failuresLeft map[string]int
}

func newAPIServer(t *testing.T, configure func(*apiServer)) *apiServer {
	t.Helper()
	s := &apiServer{
		t:            t,
		requests:     map[string]int{},
		accept:       map[string]string{},
		query:        map[string]string{},
		failuresLeft: map[string]int{},
	}
	for _, g := range cluster {
		for _, v := range g.versions {
			if v.stale {
				s.failuresLeft["/apis/"+g.name+"/"+v.version] = -1
			}
		}
	}
	if configure != nil {
		configure(s)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *apiServer) config() *restclient.Config {
	return &restclient.Config{Host: s.URL}
}

func (s *apiServer) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

func (s *apiServer) lastAccept(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accept[path]
}

func (s *apiServer) lastQuery(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.query[path]
}

// record logs r and reports whether it must fail with 503.
func (s *apiServer) record(r *http.Request) (fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[r.URL.Path]++
	s.accept[r.URL.Path] = r.Header.Get("Accept")
	s.query[r.URL.Path] = r.URL.RawQuery
	left, ok := s.failuresLeft[r.URL.Path]
	if !ok || left == 0 {
		return false
	}
	if left > 0 {
		s.failuresLeft[r.URL.Path] = left - 1
	}
	return true
}

func (s *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		writeStatus(w, http.StatusMethodNotAllowed, metav1.StatusReasonMethodNotAllowed, "only GET is served")
		return
	}
	if s.record(r) {
		writeStatus(w, http.StatusServiceUnavailable, metav1.StatusReasonServiceUnavailable, "the server is currently unable to handle the request")
		return
	}
	wantsAggregated := !s.legacyOnly && strings.Contains(r.Header.Get("Accept"), "g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	path := r.URL.Path
	switch {
	case path == "/api" && s.coreNotFound, path == "/api/v1" && s.coreNotFound:
		writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "the server could not find the requested resource")
	case path == "/api" && wantsAggregated:
		writeJSON(w, aggregatedContentType, aggregatedList(cluster[:1]))
	case path == "/api":
		writeJSON(w, "application/json", metav1.APIVersions{
			TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"},
			ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: "10.0.0.1:6443"}},
		})
	case path == "/apis" && wantsAggregated:
		writeJSON(w, aggregatedContentType, aggregatedList(cluster[1:]))
	case path == "/apis":
		writeJSON(w, "application/json", legacyGroupList(cluster[1:]))
	case path == "/version":
		writeJSON(w, "application/json", serverVersion)
	case path == "/openapi/v2":
		if r.Header.Get("Accept") != "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" {
			writeStatus(w, http.StatusNotAcceptable, metav1.StatusReasonNotAcceptable, "only protobuf is served in this test")
			return
		}
		body, err := proto.Marshal(openAPIV2Doc)
		if err != nil {
			s.t.Errorf("marshalling the OpenAPI v2 document: %v", err)
		}
		w.Header().Set("Content-Type", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
		_, _ = w.Write(body)
	case path == "/openapi/v3":
		root := map[string]map[string]map[string]string{"paths": {}}
		for p, d := range openAPIV3Docs {
			root["paths"][p] = map[string]string{"serverRelativeURL": "/openapi/v3/" + p + "?hash=" + d.hash}
		}
		writeJSON(w, "application/json", root)
	case strings.HasPrefix(path, "/openapi/v3/"):
		d, ok := openAPIV3Docs[strings.TrimPrefix(path, "/openapi/v3/")]
		if !ok {
			writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "no such OpenAPI v3 document")
			return
		}
		if r.URL.Query().Get("hash") != d.hash {
			// A real server redirects stale hashes; fail loudly instead.
			writeStatus(w, http.StatusBadRequest, metav1.StatusReasonBadRequest, "missing or wrong hash")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Etag", `"`+d.hash+`"`)
		_, _ = w.Write([]byte(d.body))
	default:
		for _, g := range cluster {
			for _, v := range g.versions {
				p := "/apis/" + g.name + "/" + v.version
				if g.name == "" {
					p = "/api/" + v.version
				}
				if path == p {
					writeJSON(w, "application/json", legacyResourceList(g, v))
					return
				}
			}
		}
		writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "the server could not find the requested resource")
	}
}

func writeJSON(w http.ResponseWriter, contentType string, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	_, _ = w.Write(body)
}

func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, message string) {
	body, _ := json.Marshal(metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Message: message, Reason: reason, Code: int32(code),
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// resourceNames flattens lists into "groupVersion:name" strings.
func resourceNames(lists []*metav1.APIResourceList) []string {
	var names []string
	for _, l := range lists {
		for _, r := range l.APIResources {
			names = append(names, fmt.Sprintf("%s:%s", l.GroupVersion, r.Name))
		}
	}
	return names
}
