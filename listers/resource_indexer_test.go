package listers_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeclient/client-go/listers"
	"github.com/kubeclient/client-go/tools/cache"
)

func pod(ns, name string, lbls map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}}
}

func TestResourceIndexer(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range []*corev1.Pod{
		pod("a", "web-1", map[string]string{"app": "web"}),
		pod("a", "db-1", map[string]string{"app": "db"}),
		pod("b", "web-2", map[string]string{"app": "web"}),
	} {
		if err := indexer.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	all := listers.New[*corev1.Pod](indexer, schema.GroupResource{Resource: "pod"})
	inA := listers.NewNamespaced(all, "a")

	tests := []struct {
		name     string
		lister   listers.ResourceIndexer[*corev1.Pod]
		selector labels.Selector
		want     int
	}{
		{name: "everything", lister: all, selector: labels.Everything(), want: 3},
		{name: "by label", lister: all, selector: labels.SelectorFromSet(labels.Set{"app": "web"}), want: 2},
		{name: "namespace", lister: inA, selector: labels.Everything(), want: 2},
		{name: "namespace and label", lister: inA, selector: labels.SelectorFromSet(labels.Set{"app": "web"}), want: 1},
		{name: "nothing", lister: all, selector: labels.Nothing(), want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.lister.List(tt.selector)
			if err != nil || len(got) != tt.want {
				t.Errorf("List = %d objects, %v; want %d", len(got), err, tt.want)
			}
		})
	}

	if p, err := inA.Get("db-1"); err != nil || p.Name != "db-1" {
		t.Errorf("Get(db-1) = %v, %v", p, err)
	}
	_, err := inA.Get("web-2")
	if !apierrors.IsNotFound(err) {
		t.Fatalf("Get(web-2) in namespace a: err = %v, want NotFound", err)
	}
	if want := `pod "web-2" not found`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestResourceIndexerClusterScoped(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := indexer.Add(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube-system"}}); err != nil {
		t.Fatal(err)
	}
	l := listers.New[*corev1.Namespace](indexer, schema.GroupResource{Resource: "namespace"})
	if ns, err := l.Get("kube-system"); err != nil || ns.Name != "kube-system" {
		t.Errorf("Get = %v, %v", ns, err)
	}
	if _, err := l.Get("missing"); !apierrors.IsNotFound(err) {
		t.Errorf("Get(missing): err = %v, want NotFound", err)
	}
}

func TestResourceIndexerWrongType(t *testing.T) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if err := indexer.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "x"}}); err != nil {
		t.Fatal(err)
	}
	l := listers.NewNamespaced(listers.New[*corev1.Pod](indexer, schema.GroupResource{Resource: "pod"}), "a")
	if _, err := l.Get("x"); err == nil || apierrors.IsNotFound(err) {
		t.Errorf("Get of a ConfigMap through a Pod lister: err = %v, want an internal error", err)
	}
	if got, err := l.List(labels.Everything()); err != nil || len(got) != 0 {
		t.Errorf("List = %v, %v; want the ConfigMap skipped", got, err)
	}
}
