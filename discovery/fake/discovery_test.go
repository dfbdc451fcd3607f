package fake_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/kubeclient/client-go/discovery"
	"github.com/kubeclient/client-go/discovery/fake"
	kubeversion "github.com/kubeclient/client-go/pkg/version"
	clienttesting "github.com/kubeclient/client-go/testing"
)

func newFake() *fake.FakeDiscovery {
	f := &fake.FakeDiscovery{Fake: &clienttesting.Fake{}}
	f.Resources = []*metav1.APIResourceList{
		{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "pods", Namespaced: true, Kind: "Pod"}}},
		{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Kind: "Deployment"}}},
		{GroupVersion: "apps/v1beta2", APIResources: []metav1.APIResource{{Name: "deployments", Namespaced: true, Kind: "Deployment"}}},
	}
	return f
}

func TestServerGroups(t *testing.T) {
	f := newFake()
	groups, err := f.ServerGroups()
	if err != nil {
		t.Fatal(err)
	}
	v1 := metav1.GroupVersionForDiscovery{GroupVersion: "v1", Version: "v1"}
	apps := metav1.GroupVersionForDiscovery{GroupVersion: "apps/v1", Version: "v1"}
	appsBeta := metav1.GroupVersionForDiscovery{GroupVersion: "apps/v1beta2", Version: "v1beta2"}
	want := []metav1.APIGroup{
		{Name: "", Versions: []metav1.GroupVersionForDiscovery{v1}, PreferredVersion: v1},
		{Name: "apps", Versions: []metav1.GroupVersionForDiscovery{apps, appsBeta}, PreferredVersion: apps},
	}
	if !reflect.DeepEqual(groups.Groups, want) {
		t.Errorf("groups = %+v\nwant %+v", groups.Groups, want)
	}
	actions := f.Actions()
	if len(actions) != 1 || actions[0].GetVerb() != "get" || actions[0].GetResource().Resource != "group" {
		t.Errorf("actions = %v, want one get of group", actions)
	}

	f.Resources = append(f.Resources, &metav1.APIResourceList{GroupVersion: "a/b/c"})
	if _, err := f.ServerGroups(); err == nil {
		t.Errorf("an unparsable GroupVersion must be an error")
	}
}

func TestServerResourcesForGroupVersion(t *testing.T) {
	f := newFake()
	list, err := f.ServerResourcesForGroupVersion("apps/v1")
	if err != nil || list != f.Resources[1] {
		t.Errorf("ServerResourcesForGroupVersion(apps/v1) = %v, %v", list, err)
	}
	if _, err := f.ServerResourcesForGroupVersionWithContext(context.Background(), "batch/v1"); !apierrors.IsNotFound(err) {
		t.Errorf("unknown group version = %v, want NotFound", err)
	}
	if enabled, err := discovery.IsResourceEnabled(f, schema.GroupVersionResource{Version: "v1", Resource: "pods"}); err != nil || !enabled {
		t.Errorf("IsResourceEnabled(pods) = %v, %v", enabled, err)
	}
}

func TestReactorErrors(t *testing.T) {
	boom := errors.New("boom")
	f := newFake()
	f.AddReactor("get", "resource", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, boom
	})
	if _, err := f.ServerResourcesForGroupVersion("v1"); !errors.Is(err, boom) {
		t.Errorf("ServerResourcesForGroupVersion = %v, want the reactor's error", err)
	}
	groups, lists, err := f.ServerGroupsAndResources()
	if !errors.Is(err, boom) || len(groups) != 2 || len(lists) != 3 {
		t.Errorf("ServerGroupsAndResources = %d groups, %d lists, %v; want results with the reactor's error", len(groups), len(lists), err)
	}

	f.PrependReactor("get", "version", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, boom
	})
	if _, err := f.ServerVersion(); !errors.Is(err, boom) {
		t.Errorf("ServerVersion = %v, want the reactor's error", err)
	}
}

func TestServerGroupsAndResources(t *testing.T) {
	f := newFake()
	groups, lists, err := f.ServerGroupsAndResourcesWithContext(context.Background())
	if err != nil || len(groups) != 2 || !reflect.DeepEqual(lists, f.Resources) {
		t.Errorf("ServerGroupsAndResources = %v, %v, %v", groups, lists, err)
	}
}

func TestServerVersion(t *testing.T) {
	f := newFake()
	got, err := f.ServerVersion()
	if want := kubeversion.Get(); err != nil || *got != want {
		t.Errorf("default ServerVersion = %+v, %v; want %+v", got, err, want)
	}
	f.FakedServerVersion = &version.Info{Major: "1", Minor: "37", GitVersion: "v1.37.2"}
	if got, _ := f.ServerVersionWithContext(context.Background()); got != f.FakedServerVersion {
		t.Errorf("ServerVersion = %+v, want FakedServerVersion", got)
	}
	if err := discovery.MatchesServerVersion(*f.FakedServerVersion, f); err != nil {
		t.Errorf("MatchesServerVersion: %v", err)
	}
}

func TestStaticAnswers(t *testing.T) {
	f := newFake()
	if lists, err := f.ServerPreferredResources(); lists != nil || err != nil {
		t.Errorf("ServerPreferredResources = %v, %v", lists, err)
	}
	if lists, err := f.ServerPreferredNamespacedResources(); lists != nil || err != nil {
		t.Errorf("ServerPreferredNamespacedResources = %v, %v", lists, err)
	}
	if doc, err := f.OpenAPISchema(); err != nil || doc == nil {
		t.Errorf("OpenAPISchema = %v, %v", doc, err)
	}
	if _, err := f.OpenAPIV3().Paths(); err == nil {
		t.Errorf("OpenAPIV3().Paths() = nil error, want not served")
	}
	if _, err := f.OpenAPIV3WithContext(context.Background()).PathsWithContext(context.Background()); err == nil {
		t.Errorf("OpenAPIV3WithContext().PathsWithContext() = nil error")
	}
	if f.RESTClient() != nil {
		t.Errorf("RESTClient = non-nil")
	}
	if f.WithLegacy() != discovery.DiscoveryInterface(f) || f.WithLegacyWithContext(context.Background()) != discovery.DiscoveryInterfaceWithContext(f) {
		t.Errorf("WithLegacy must return the fake itself")
	}
}
