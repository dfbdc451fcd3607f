package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/discovery"
)

func newClients(t *testing.T) (aggregated, legacy *discovery.DiscoveryClient) {
	t.Helper()
	aggregated, err := discovery.NewDiscoveryClientForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("NewDiscoveryClientForConfig: %v", err)
	}
	legacy, err = discovery.NewDiscoveryClientForConfig(controlPlane.AdminConfig())
	if err != nil {
		t.Fatalf("NewDiscoveryClientForConfig: %v", err)
	}
	legacy.UseLegacyDiscovery = true
	return aggregated, legacy
}

func TestServerVersion(t *testing.T) {
	client, _ := newClients(t)
	v, err := client.ServerVersion()
	if err != nil {
		t.Fatalf("ServerVersion: %v", err)
	}
	// controlplane/build.sh stamps the release the binaries were built
	// from; the client must report exactly what /version says on the wire.
	raw, err := client.RESTClient().Get().AbsPath("/version").DoRaw(context.Background())
	if err != nil {
		t.Fatalf("GET /version: %v", err)
	}
	var want version.Info
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
	if *v != want || v.GitVersion == "" {
		t.Errorf("ServerVersion %+v, /version says %+v", v, want)
	}
	if v.GitVersion != "v1.37.2" || v.Major != "1" || v.Minor != "37" {
		t.Errorf("server version %s (major %q minor %q), want v1.37.2 (1, 37) as build.sh stamps it", v.GitVersion, v.Major, v.Minor)
	}
	if v.GoVersion == "" || v.Platform == "" {
		t.Errorf("server version lacks GoVersion/Platform: %+v", v)
	}
}

// describeGroups renders groups as sorted "name: versions (preferred)"
// lines, for comparison and for readable failures.
func describeGroups(list *metav1.APIGroupList) []string {
	var out []string
	for _, g := range list.Groups {
		var versions []string
		for _, v := range g.Versions {
			versions = append(versions, v.GroupVersion)
		}
		out = append(out, fmt.Sprintf("%q: %s (preferred %s)", g.Name, strings.Join(versions, ","), g.PreferredVersion.GroupVersion))
	}
	sort.Strings(out)
	return out
}

func TestServerGroupsAggregatedMatchesLegacy(t *testing.T) {
	aggregated, legacy := newClients(t)
	agg, err := aggregated.ServerGroups()
	if err != nil {
		t.Fatalf("aggregated ServerGroups: %v", err)
	}
	leg, err := legacy.ServerGroups()
	if err != nil {
		t.Fatalf("legacy ServerGroups: %v", err)
	}
	a, l := describeGroups(agg), describeGroups(leg)
	if !slices.Equal(a, l) {
		t.Errorf("aggregated and legacy groups differ:\naggregated:\n  %s\nlegacy:\n  %s", strings.Join(a, "\n  "), strings.Join(l, "\n  "))
	}
	for _, want := range []string{`"": v1 (preferred v1)`, `"apps": apps/v1 (preferred apps/v1)`, `"rbac.authorization.k8s.io": rbac.authorization.k8s.io/v1 (preferred rbac.authorization.k8s.io/v1)`} {
		if !slices.Contains(a, want) {
			t.Errorf("groups lack %s; have\n  %s", want, strings.Join(a, "\n  "))
		}
	}
	// The core group comes first, as kubectl expects.
	if len(agg.Groups) == 0 || agg.Groups[0].Name != "" {
		t.Errorf("first aggregated group is not the core group")
	}
}

// describeResources renders every group version's resources as sorted
// "gv resource kind namespaced verbs" lines.
func describeResources(lists []*metav1.APIResourceList) map[string][]string {
	out := map[string][]string{}
	for _, list := range lists {
		for _, r := range list.APIResources {
			verbs := slices.Clone([]string(r.Verbs))
			sort.Strings(verbs)
			out[list.GroupVersion] = append(out[list.GroupVersion],
				fmt.Sprintf("%s kind=%s namespaced=%v verbs=%s", r.Name, r.Kind, r.Namespaced, strings.Join(verbs, ",")))
		}
		sort.Strings(out[list.GroupVersion])
	}
	return out
}

func TestServerResourcesAggregatedMatchesLegacy(t *testing.T) {
	aggregated, legacy := newClients(t)
	_, aggLists, err := aggregated.ServerGroupsAndResources()
	if err != nil {
		t.Fatalf("aggregated ServerGroupsAndResources: %v", err)
	}
	_, legLists, err := legacy.ServerGroupsAndResources()
	if err != nil {
		t.Fatalf("legacy ServerGroupsAndResources: %v", err)
	}
	a, l := describeResources(aggLists), describeResources(legLists)
	if len(a) != len(l) {
		t.Errorf("aggregated has %d group versions, legacy %d", len(a), len(l))
	}
	for gv, want := range l {
		if got := a[gv]; !slices.Equal(got, want) {
			t.Errorf("%s differs:\naggregated:\n  %s\nlegacy:\n  %s", gv, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
	if !slices.Contains(a["v1"], "configmaps kind=ConfigMap namespaced=true verbs=create,delete,deletecollection,get,list,patch,update,watch") {
		t.Errorf("v1 lacks configmaps with the usual verbs: %v", a["v1"])
	}
	if !slices.ContainsFunc(a["apps/v1"], func(s string) bool { return strings.HasPrefix(s, "deployments/status kind=Deployment") }) {
		t.Errorf("apps/v1 lacks deployments/status: %v", a["apps/v1"])
	}
}

func TestServerResourcesForGroupVersion(t *testing.T) {
	client, _ := newClients(t)
	list, err := client.ServerResourcesForGroupVersion("apps/v1")
	if err != nil {
		t.Fatalf("ServerResourcesForGroupVersion(apps/v1): %v", err)
	}
	if list.GroupVersion != "apps/v1" || !slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool {
		return r.Name == "deployments" && r.Kind == "Deployment" && slices.Contains(r.ShortNames, "deploy")
	}) {
		t.Errorf("apps/v1 resources %+v lack deployments (short name deploy)", list)
	}
	if _, err := client.ServerResourcesForGroupVersion("nosuch.example.com/v1"); err == nil {
		t.Error("unknown group version: no error")
	}
}

func TestServerPreferredResources(t *testing.T) {
	client, _ := newClients(t)
	lists, err := client.ServerPreferredResources()
	if err != nil {
		t.Fatalf("ServerPreferredResources: %v", err)
	}
	found := map[string]bool{}
	for _, list := range lists {
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				t.Errorf("preferred resources include subresource %s in %s", r.Name, list.GroupVersion)
			}
			found[list.GroupVersion+"/"+r.Name] = true
		}
	}
	for _, want := range []string{"v1/configmaps", "apps/v1/deployments", "rbac.authorization.k8s.io/v1/roles"} {
		if !found[want] {
			t.Errorf("preferred resources lack %s", want)
		}
	}
}
