package metadatalister

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

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

func newIndexer(t *testing.T) cache.Indexer {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, m := range []struct{ ns, name, app string }{{"ns", "a", "web"}, {"ns", "b", "db"}, {"other", "c", "web"}, {"", "cluster", "web"}} {
		obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: m.ns, Name: m.name, Labels: map[string]string{"app": m.app}}}
		if err := indexer.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	return indexer
}

func names(objs []*metav1.PartialObjectMetadata) string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Name)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func TestListAndGet(t *testing.T) {
	l := New(newIndexer(t), podsGVR)
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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			selector := labels.Everything()
			if tc.selector != "" {
				var err error
				if selector, err = labels.Parse(tc.selector); err != nil {
					t.Fatal(err)
				}
			}
			var got []*metav1.PartialObjectMetadata
			var err error
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

	if got, err := l.Get("cluster"); err != nil || got.Name != "cluster" {
		t.Errorf("cluster-scoped get: %v, %v", got, err)
	}
	if got, err := l.Namespace("other").Get("c"); err != nil || got.Namespace != "other" {
		t.Errorf("namespaced get: %v, %v", got, err)
	}
	_, err := l.Namespace("ns").Get("c")
	if !apierrors.IsNotFound(err) || err.(apierrors.APIStatus).Status().Details.Kind != "pods" {
		t.Errorf("get in the wrong namespace: %v", err)
	}
}

func TestRuntimeObjectShim(t *testing.T) {
	indexer := newIndexer(t)
	shim := NewRuntimeObjectShim(New(indexer, podsGVR))
	if all, err := shim.List(labels.Everything()); err != nil || len(all) != 4 {
		t.Fatalf("List: %d, %v", len(all), err)
	}
	inNS, err := shim.ByNamespace("ns").List(labels.Everything())
	if err != nil || len(inNS) != 2 {
		t.Fatalf("ByNamespace.List: %v, %v", inNS, err)
	}
	if obj, err := shim.ByNamespace("ns").Get("a"); err != nil || obj.(*metav1.PartialObjectMetadata).Name != "a" {
		t.Errorf("ByNamespace.Get: %v, %v", obj, err)
	}
	if obj, err := shim.Get("cluster"); err != nil || obj.(*metav1.PartialObjectMetadata).Name != "cluster" {
		t.Errorf("Get: %v, %v", obj, err)
	}
	indexer.Add(&unstructured.Unstructured{Object: map[string]interface{}{"metadata": map[string]interface{}{"name": "foreign"}}})
	if _, err := shim.Get("foreign"); err == nil || !strings.Contains(err.Error(), "not a *v1.PartialObjectMetadata") {
		t.Errorf("foreign object: %v", err)
	}
}
