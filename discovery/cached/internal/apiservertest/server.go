package apiservertest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	apidiscovery "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	restclient "github.com/kubeclient/client-go/rest"
)

// Subresource is a subresource of a Resource. Group and Version, when set,
// name the group-version of its kind (as for scale, autoscaling/v1).
type Subresource struct {
	Name, Kind, Group, Version string
}

// Resource is a resource of a Version.
type Resource struct {
	Name, Singular, Kind string
	Namespaced           bool
	ShortNames           []string
	Categories           []string
	Subresources         []Subresource
}

// Version is one version of a Group.
type Version struct {
	Version   string
	Resources []Resource
	// Stale marks a version whose serving (aggregated) apiserver is down:
	// aggregated discovery flags it Stale, and its legacy discovery
	// document answers 503.
	Stale bool
}

// Group is an API group; "" is the core group. Its first version is the
// preferred one.
type Group struct {
	Name     string
	Versions []Version
}

var verbs = metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"}

// CoreAndApps is core/v1 (pods, namespaces) and apps/v1 (deployments with a
// scale subresource) and apps/v1beta2.
func CoreAndApps() []Group {
	return []Group{
		{Name: "", Versions: []Version{{Version: "v1", Resources: []Resource{
			{Name: "pods", Singular: "pod", Kind: "Pod", Namespaced: true, ShortNames: []string{"po"}, Categories: []string{"all"},
				Subresources: []Subresource{{Name: "status", Kind: "Pod"}}},
			{Name: "namespaces", Singular: "namespace", Kind: "Namespace", ShortNames: []string{"ns"}},
		}}}},
		{Name: "apps", Versions: []Version{
			{Version: "v1", Resources: []Resource{
				{Name: "deployments", Singular: "deployment", Kind: "Deployment", Namespaced: true, ShortNames: []string{"deploy"}, Categories: []string{"all"},
					Subresources: []Subresource{{Name: "scale", Kind: "Scale", Group: "autoscaling", Version: "v1"}}},
			}},
			{Version: "v1beta2", Resources: []Resource{
				{Name: "deployments", Singular: "deployment", Kind: "Deployment", Namespaced: true, ShortNames: []string{"deploy"}},
			}},
		}},
	}
}

// CronTabCRD is the group of a CustomResourceDefinition: stable.example.com/v1
// crontabs, short name "ct", in category "all".
func CronTabCRD() Group {
	return Group{Name: "stable.example.com", Versions: []Version{{Version: "v1", Resources: []Resource{
		{Name: "crontabs", Singular: "crontab", Kind: "CronTab", Namespaced: true, ShortNames: []string{"ct"}, Categories: []string{"all"}},
	}}}}
}

// Server is the fake API server. Its methods are safe for concurrent use.
type Server struct {
	*httptest.Server

	// mu guards the fields below.
	mu          sync.Mutex
	groups      []Group
	aggregated  bool
	counts      map[string]int
	notModified map[string]int
	failures    map[string]int
	held        map[string]*Hold
	openAPI     map[string]openAPIDoc
}

// openAPIDoc is one group-version's OpenAPI v3 document.
type openAPIDoc struct {
	body     []byte
	modified time.Time
}

// Hold parks the requests of one path until Release.
type Hold struct {
	// Entered receives once per request that arrives while held.
	Entered chan struct{}
	release chan struct{}
	once    sync.Once
}

// Release lets the held requests, and later ones, through.
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }

// New starts a server for groups, answering aggregated discovery when
// aggregated is true. It is closed when the test ends.
func New(t testing.TB, aggregated bool, groups []Group) *Server {
	s := &Server{
		groups:      groups,
		aggregated:  aggregated,
		counts:      map[string]int{},
		notModified: map[string]int{},
		failures:    map[string]int{},
		held:        map[string]*Hold{},
	}
	s.setOpenAPILocked(groups)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		s.serve(rec, r)
		if rec.status == http.StatusNotModified {
			s.mu.Lock()
			s.notModified[r.URL.Path]++
			s.mu.Unlock()
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// Config returns a rest.Config for the server.
func (s *Server) Config() *restclient.Config {
	return &restclient.Config{Host: s.URL}
}

// SetGroups replaces the served groups (and their OpenAPI documents), as
// when a CRD is created.
func (s *Server) SetGroups(groups []Group) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups = groups
	s.setOpenAPILocked(groups)
}

// Count returns how many requests path received.
func (s *Server) Count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[path]
}

// NotModified returns how many requests for path were answered 304 Not
// Modified.
func (s *Server) NotModified(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notModified[path]
}

// statusRecorder remembers the status code written.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Total returns how many requests the server received.
func (s *Server) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

// Fail makes the next n requests for path fail with a 503 Status.
func (s *Server) Fail(path string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures[path] = n
}

// HoldPath parks requests for path until the returned Hold is released.
func (s *Server) HoldPath(path string) *Hold {
	h := &Hold{Entered: make(chan struct{}, 100), release: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held[path] = h
	return h
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.counts[r.URL.Path]++
	hold := s.held[r.URL.Path]
	failing := s.failures[r.URL.Path] > 0
	if failing {
		s.failures[r.URL.Path]--
	}
	groups := s.groups
	aggregated := s.aggregated && strings.Contains(r.Header.Get("Accept"), "as=APIGroupDiscoveryList")
	s.mu.Unlock()

	if hold != nil {
		hold.Entered <- struct{}{}
		<-hold.release
	}
	if failing {
		writeStatus(w, http.StatusServiceUnavailable, metav1.StatusReasonServiceUnavailable, "the server is currently unable to handle the request")
		return
	}

	switch path := r.URL.Path; {
	case path == "/version":
		writeJSON(w, "application/json", &version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2"})
	case path == "/api" && aggregated:
		writeAggregated(w, groups, true)
	case path == "/apis" && aggregated:
		writeAggregated(w, groups, false)
	case path == "/api":
		writeJSON(w, "application/json", &metav1.APIVersions{
			TypeMeta: metav1.TypeMeta{Kind: "APIVersions"},
			Versions: []string{"v1"},
			ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{
				{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host},
			},
		})
	case path == "/apis":
		writeJSON(w, "application/json", legacyGroupList(groups))
	case strings.HasPrefix(path, "/openapi/v3"):
		s.serveOpenAPI(w, r)
	default:
		if list, stale := legacyResources(groups, path); stale {
			writeStatus(w, http.StatusServiceUnavailable, metav1.StatusReasonServiceUnavailable, "the server is currently unable to handle the request")
			return
		} else if list != nil {
			writeJSON(w, "application/json", list)
			return
		}
		writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "the server could not find the requested resource")
	}
}

// groupVersionPath returns the URL path of a group-version without the
// leading slash: "api/v1" or "apis/<group>/<version>".
func groupVersionPath(group, version string) string {
	if group == "" {
		return "api/" + version
	}
	return "apis/" + group + "/" + version
}

func groupVersion(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

func legacyGroupList(groups []Group) *metav1.APIGroupList {
	list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []metav1.APIGroup{}}
	for _, g := range groups {
		if g.Name == "" {
			continue
		}
		apiGroup := metav1.APIGroup{Name: g.Name}
		for _, v := range g.Versions {
			apiGroup.Versions = append(apiGroup.Versions, metav1.GroupVersionForDiscovery{GroupVersion: groupVersion(g.Name, v.Version), Version: v.Version})
		}
		apiGroup.PreferredVersion = apiGroup.Versions[0]
		list.Groups = append(list.Groups, apiGroup)
	}
	return list
}

// legacyResources returns the APIResourceList at path, or reports that the
// version there is stale.
func legacyResources(groups []Group, path string) (*metav1.APIResourceList, bool) {
	for _, g := range groups {
		for _, v := range g.Versions {
			if path != "/"+groupVersionPath(g.Name, v.Version) {
				continue
			}
			if v.Stale {
				return nil, true
			}
			list := &metav1.APIResourceList{
				TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
				GroupVersion: groupVersion(g.Name, v.Version),
				APIResources: []metav1.APIResource{},
			}
			for _, r := range v.Resources {
				list.APIResources = append(list.APIResources, metav1.APIResource{
					Name: r.Name, SingularName: r.Singular, Namespaced: r.Namespaced, Kind: r.Kind,
					Verbs: verbs, ShortNames: r.ShortNames, Categories: r.Categories,
				})
				for _, sub := range r.Subresources {
					list.APIResources = append(list.APIResources, metav1.APIResource{
						Name: r.Name + "/" + sub.Name, Namespaced: r.Namespaced, Kind: sub.Kind,
						Group: sub.Group, Version: sub.Version, Verbs: metav1.Verbs{"get", "patch", "update"},
					})
				}
			}
			return list, false
		}
	}
	return nil, false
}

func writeAggregated(w http.ResponseWriter, groups []Group, core bool) {
	list := &apidiscovery.APIGroupDiscoveryList{
		TypeMeta: metav1.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/v2"},
		Items:    []apidiscovery.APIGroupDiscovery{},
	}
	for _, g := range groups {
		if (g.Name == "") != core {
			continue
		}
		item := apidiscovery.APIGroupDiscovery{ObjectMeta: metav1.ObjectMeta{Name: g.Name}}
		for _, v := range g.Versions {
			version := apidiscovery.APIVersionDiscovery{Version: v.Version, Freshness: apidiscovery.DiscoveryFreshnessCurrent}
			if v.Stale {
				version.Freshness = apidiscovery.DiscoveryFreshnessStale
			}
			for _, r := range v.Resources {
				scope := apidiscovery.ScopeCluster
				if r.Namespaced {
					scope = apidiscovery.ScopeNamespace
				}
				resource := apidiscovery.APIResourceDiscovery{
					Resource:         r.Name,
					ResponseKind:     &metav1.GroupVersionKind{Group: g.Name, Version: v.Version, Kind: r.Kind},
					Scope:            scope,
					SingularResource: r.Singular,
					Verbs:            verbs,
					ShortNames:       r.ShortNames,
					Categories:       r.Categories,
				}
				for _, sub := range r.Subresources {
					kind := &metav1.GroupVersionKind{Group: g.Name, Version: v.Version, Kind: sub.Kind}
					if sub.Group != "" {
						kind = &metav1.GroupVersionKind{Group: sub.Group, Version: sub.Version, Kind: sub.Kind}
					}
					resource.Subresources = append(resource.Subresources, apidiscovery.APISubresourceDiscovery{
						Subresource: sub.Name, ResponseKind: kind, Verbs: []string{"get", "patch", "update"},
					})
				}
				version.Resources = append(version.Resources, resource)
			}
			item.Versions = append(item.Versions, version)
		}
		list.Items = append(list.Items, item)
	}
	writeJSON(w, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", list)
}

// setOpenAPILocked builds one small OpenAPI v3 document per group-version.
func (s *Server) setOpenAPILocked(groups []Group) {
	s.openAPI = map[string]openAPIDoc{}
	for _, g := range groups {
		for _, v := range g.Versions {
			schemas := map[string]any{}
			for _, r := range v.Resources {
				schemas[fmt.Sprintf("%s.%s.%s", g.Name, v.Version, r.Kind)] = map[string]any{
					"type":                            "object",
					"x-kubernetes-group-version-kind": []map[string]string{{"group": g.Name, "version": v.Version, "kind": r.Kind}},
				}
			}
			body, _ := json.Marshal(map[string]any{
				"openapi":    "3.0.0",
				"info":       map[string]string{"title": "Kubernetes", "version": "v1.37.2"},
				"paths":      map[string]any{},
				"components": map[string]any{"schemas": schemas},
			})
			s.openAPI[groupVersionPath(g.Name, v.Version)] = openAPIDoc{body: body, modified: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		}
	}
}

func hashOf(body []byte) string {
	sum := sha256.Sum256(body)
	return strings.ToUpper(hex.EncodeToString(sum[:8]))
}

// serveOpenAPI answers /openapi/v3 (the listing, revalidated by ETag) and
// /openapi/v3/<gv path>?hash=<hash> (immutable when the hash matches).
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	docs := s.openAPI
	s.mu.Unlock()

	if r.URL.Path == "/openapi/v3" {
		paths := map[string]map[string]string{}
		for p, doc := range docs {
			paths[p] = map[string]string{"serverRelativeURL": "/openapi/v3/" + p + "?hash=" + hashOf(doc.body)}
		}
		body, _ := json.Marshal(map[string]any{"paths": paths})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Etag", `"`+hashOf(body)+`"`)
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(string(body)))
		return
	}
	doc, ok := docs[strings.TrimPrefix(r.URL.Path, "/openapi/v3/")]
	if !ok {
		writeStatus(w, http.StatusNotFound, metav1.StatusReasonNotFound, "no OpenAPI document at "+r.URL.Path)
		return
	}
	hash := hashOf(doc.body)
	if got := r.URL.Query().Get("hash"); got != "" {
		if got != hash {
			http.Redirect(w, r, r.URL.Path+"?hash="+hash, http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Vary", "Accept")
		w.Header().Set("Cache-Control", "public, immutable")
		w.Header().Set("Expires", time.Now().UTC().AddDate(1, 0, 0).Format(time.RFC1123))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Etag", `"`+hash+`"`)
	http.ServeContent(w, r, "", doc.modified, strings.NewReader(string(doc.body)))
}

func writeJSON(w http.ResponseWriter, contentType string, obj any) {
	body, err := json.Marshal(obj)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Write(body)
}

func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, message string) {
	body, _ := json.Marshal(&metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  message,
		Reason:   reason,
		Code:     int32(code),
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(body)
}
