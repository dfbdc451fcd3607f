package restmapper_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	restclient "github.com/kubeclient/client-go/rest"
)

// testGroup is an API group served by discoveryServer; its first version is
// the preferred one.
type testGroup struct {
	name     string
	versions []testVersion
}

type testVersion struct {
	version   string
	resources []metav1.APIResource
}

func res(name, singular, kind string, namespaced bool, shortNames, categories []string) metav1.APIResource {
	return metav1.APIResource{
		Name: name, SingularName: singular, Kind: kind, Namespaced: namespaced,
		ShortNames: shortNames, Categories: categories,
		Verbs: metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"},
	}
}

func cluster() []testGroup {
	return []testGroup{
		{name: "", versions: []testVersion{{version: "v1", resources: []metav1.APIResource{
			res("pods", "pod", "Pod", true, []string{"po"}, []string{"all"}),
			{Name: "pods/status", Kind: "Pod", Namespaced: true, Verbs: metav1.Verbs{"get"}},
			res("namespaces", "namespace", "Namespace", false, []string{"ns"}, nil),
			res("services", "service", "Service", true, []string{"svc"}, []string{"all"}),
		}}}},
		{name: "apps", versions: []testVersion{
			{version: "v1", resources: []metav1.APIResource{
				res("deployments", "deployment", "Deployment", true, []string{"deploy"}, []string{"all"}),
				{Name: "deployments/scale", Kind: "Scale", Group: "autoscaling", Version: "v1", Namespaced: true, Verbs: metav1.Verbs{"get", "update"}},
			}},
			{version: "v1beta2", resources: []metav1.APIResource{
				res("deployments", "deployment", "Deployment", true, []string{"deploy"}, []string{"all"}),
				res("oldthings", "", "OldThing", true, nil, nil),
			}},
		}},
		{name: "autoscaling", versions: []testVersion{{version: "v2", resources: []metav1.APIResource{
			res("horizontalpodautoscalers", "horizontalpodautoscaler", "HorizontalPodAutoscaler", true, []string{"hpa"}, []string{"all"}),
		}}}},
	}
}

func cronTabGroup(name string) testGroup {
	return testGroup{name: name, versions: []testVersion{{version: "v1", resources: []metav1.APIResource{
		res("crontabs", "crontab", "CronTab", true, []string{"ct"}, []string{"all"}),
	}}}}
}

// discoveryServer serves legacy discovery (/api, /apis and one
// APIResourceList per group-version) for a changeable set of groups.
type discoveryServer struct {
	*httptest.Server
	mu       sync.Mutex
	groups   []testGroup
	failing  map[string]bool
	requests int
}

func newDiscoveryServer(t *testing.T, groups []testGroup) *discoveryServer {
	s := &discoveryServer{groups: groups, failing: map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *discoveryServer) config() *restclient.Config { return &restclient.Config{Host: s.URL} }

func (s *discoveryServer) setGroups(groups []testGroup) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.groups = groups
}

func (s *discoveryServer) fail(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing[path] = true
}

func (s *discoveryServer) requestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func gvString(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

func (s *discoveryServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	groups, failing := s.groups, s.failing[r.URL.Path]
	s.mu.Unlock()

	if failing {
		writeJSON(w, http.StatusServiceUnavailable, &metav1.Status{
			TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
			Reason: metav1.StatusReasonServiceUnavailable, Code: http.StatusServiceUnavailable, Message: "unavailable",
		})
		return
	}
	switch r.URL.Path {
	case "/api":
		writeJSON(w, http.StatusOK, &metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: []string{"v1"}})
		return
	case "/apis":
		list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
		for _, g := range groups {
			if g.name == "" {
				continue
			}
			group := metav1.APIGroup{Name: g.name}
			for _, v := range g.versions {
				group.Versions = append(group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: gvString(g.name, v.version), Version: v.version})
			}
			group.PreferredVersion = group.Versions[0]
			list.Groups = append(list.Groups, group)
		}
		writeJSON(w, http.StatusOK, list)
		return
	}
	for _, g := range groups {
		for _, v := range g.versions {
			prefix := "/apis/" + g.name + "/"
			if g.name == "" {
				prefix = "/api/"
			}
			if r.URL.Path == prefix+v.version {
				writeJSON(w, http.StatusOK, &metav1.APIResourceList{
					TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
					GroupVersion: gvString(g.name, v.version), APIResources: v.resources,
				})
				return
			}
		}
	}
	writeJSON(w, http.StatusNotFound, &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
		Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound, Message: "not found",
	})
}

func writeJSON(w http.ResponseWriter, code int, obj any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(obj)
}
