package dynamiclister

import (
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/tools/cache"
)

var widgetsGVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widget(ns, name, app string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("example.com/v1")
	u.SetKind("Widget")
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(map[string]string{"app": app})
	return u
}

func newIndexer(t *testing.T) cache.Indexer {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, obj := range []*unstructured.Unstructured{
		widget("ns", "a", "web"), widget("ns", "b", "db"), widget("other", "c", "web"), widget("", "cluster", "web"),
	} {
		if err := indexer.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	return indexer
}

func names(objs []*unstructured.Unstructured) string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetName())
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func TestList(t *testing.T) {
	l := New(newIndexer(t), widgetsGVR)
	tests := []struct {
		name      string
		namespace string // "-" for the cluster-wide lister
		selector  string
		want      string
	}{
		{"everything", "-", "", "a,b,c,cluster"},
		{"label", "-", "app=web", "a,c,cluster"},
		{"namespace", "ns", "", "a,b"},
		{"namespace and label", "ns", "app=db", "b"},
		{"empty namespace", "none", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			selector, err := labels.Parse(tc.selector)
			if err != nil {
				t.Fatal(err)
			}
			var got []*unstructured.Unstructured
			if tc.namespace == "-" {
				got, err = l.List(selector)
			} else {
				got, err = l.Namespace(tc.namespace).List(selector)
			}
			if err != nil || names(got) != tc.want {
				t.Errorf("got %s, %v; want %s", names(got), err, tc.want)
			}
		})
	}
}

func TestGet(t *testing.T) {
	l := New(newIndexer(t), widgetsGVR)
	if got, err := l.Get("cluster"); err != nil || got.GetName() != "cluster" {
		t.Errorf("cluster-scoped get: %v, %v", got, err)
	}
	if got, err := l.Namespace("other").Get("c"); err != nil || got.GetNamespace() != "other" {
		t.Errorf("namespaced get: %v, %v", got, err)
	}
	_, err := l.Namespace("ns").Get("c")
	if !apierrors.IsNotFound(err) {
		t.Fatalf("get in the wrong namespace: %v", err)
	}
	if status := err.(apierrors.APIStatus).Status(); status.Details.Group != "example.com" || status.Details.Kind != "widgets" || status.Details.Name != "c" {
		t.Errorf("NotFound details %+v", status.Details)
	}
}

func TestRuntimeObjectShim(t *testing.T) {
	indexer := newIndexer(t)
	shim := NewRuntimeObjectShim(New(indexer, widgetsGVR))
	all, err := shim.List(labels.Everything())
	if err != nil || len(all) != 4 {
		t.Fatalf("List: %d objects, %v", len(all), err)
	}
	inNS, err := shim.ByNamespace("ns").List(labels.SelectorFromSet(labels.Set{"app": "web"}))
	if err != nil || len(inNS) != 1 || inNS[0].(metav1.Object).GetName() != "a" {
		t.Fatalf("ByNamespace.List: %v, %v", inNS, err)
	}
	obj, err := shim.ByNamespace("ns").Get("b")
	if err != nil || obj.(*unstructured.Unstructured).GetName() != "b" {
		t.Errorf("ByNamespace.Get: %v, %v", obj, err)
	}
	if _, err := shim.Get("nope"); !apierrors.IsNotFound(err) {
		t.Errorf("Get missing: %v", err)
	}

	// A foreign object in the cache is reported, not a panic.
	indexer.Add(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "foreign"}})
	if _, err := shim.Get("foreign"); err == nil || !strings.Contains(err.Error(), "not a *unstructured.Unstructured") {
		t.Errorf("foreign object: %v", err)
	}
}
