package cache

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func TestGenericListerAndListAll(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
	_ = idx.Add(pod("a", "x", "1", map[string]string{"app": "web"}))
	_ = idx.Add(pod("a", "y", "1", map[string]string{"app": "db"}))
	_ = idx.Add(pod("b", "z", "1", map[string]string{"app": "web"}))
	l := NewGenericLister(idx, v1.Resource("pods"))
	web, _ := labels.Parse("app=web")
	objs, err := l.List(web)
	if err != nil || len(objs) != 2 {
		t.Errorf("List(app=web) = %d %v", len(objs), err)
	}
	objs, err = l.ByNamespace("a").List(web)
	if err != nil || len(objs) != 1 {
		t.Errorf("ByNamespace(a).List(app=web) = %d %v", len(objs), err)
	}
	if _, err := l.ByNamespace("a").Get("y"); err != nil {
		t.Errorf("Get(a/y): %v", err)
	}
	if _, err := l.Get("a/missing"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("Get(missing) = %v", err)
	}
	// Without a namespace index ListAllByNamespace scans.
	plain := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	_ = plain.Add(pod("a", "x", "1", nil))
	_ = plain.Add(pod("b", "z", "1", nil))
	n := 0
	if err := ListAllByNamespace(plain, "a", labels.Everything(), func(interface{}) { n++ }); err != nil || n != 1 {
		t.Errorf("ListAllByNamespace without index: n=%d err=%v", n, err)
	}
}

// TestListAllSelection covers the selection rules of ListAll and
// ListAllByNamespace, with and without a namespace index, including
// objects without metadata.
func TestListAllSelection(t *testing.T) {
	web, _ := labels.Parse("app=web")
	objects := []interface{}{
		pod("a", "x", "1", map[string]string{"app": "web"}),
		pod("a", "y", "1", map[string]string{"app": "db"}),
		pod("b", "z", "1", map[string]string{"app": "web"}),
	}
	for _, tc := range []struct {
		name      string
		indexed   bool
		namespace string
		selector  labels.Selector
		extra     interface{} // stored besides objects
		want      string
		wantErr   bool
	}{
		{name: "all, everything", selector: labels.Everything(), want: "a/x,a/y,b/z"},
		{name: "all, by label", selector: web, want: "a/x,b/z"},
		{name: "namespace via index", indexed: true, namespace: "a", selector: labels.Everything(), want: "a/x,a/y"},
		{name: "namespace via index, by label", indexed: true, namespace: "a", selector: web, want: "a/x"},
		{name: "namespace by scanning", namespace: "b", selector: web, want: "b/z"},
		{name: "all, everything accepts objects without metadata", selector: labels.Everything(), extra: ExplicitKey("odd"), want: "a/x,a/y,b/z,odd"},
		{name: "a label selector needs metadata", selector: web, extra: ExplicitKey("odd"), wantErr: true},
		{name: "scanning a namespace needs metadata", namespace: "a", selector: labels.Everything(), extra: ExplicitKey("odd"), wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			indexers := Indexers{}
			if tc.indexed {
				indexers[NamespaceIndex] = MetaNamespaceIndexFunc
			}
			idx := NewIndexer(MetaNamespaceKeyFunc, indexers)
			for _, obj := range objects {
				_ = idx.Add(obj)
			}
			if tc.extra != nil {
				_ = idx.Add(tc.extra)
			}
			var keys []string
			collect := func(obj interface{}) {
				key, _ := MetaNamespaceKeyFunc(obj)
				keys = append(keys, key)
			}
			var err error
			if tc.namespace == "" {
				err = ListAll(idx, tc.selector, collect)
			} else {
				err = ListAllByNamespace(idx, tc.namespace, tc.selector, collect)
			}
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if got := strings.Join(sorted(keys), ","); !tc.wantErr && got != tc.want {
				t.Errorf("listed %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGenericListerErrors(t *testing.T) {
	failing := &failingIndexer{Indexer: NewIndexer(MetaNamespaceKeyFunc, Indexers{}), err: errors.New("broken")}
	l := NewGenericLister(failing, v1.Resource("pods"))
	if _, err := l.Get("x"); !errors.Is(err, failing.err) {
		t.Errorf("Get = %v, want the indexer's error", err)
	}
	if _, err := l.ByNamespace("ns").Get("x"); !errors.Is(err, failing.err) {
		t.Errorf("namespaced Get = %v, want the indexer's error", err)
	}
	empty := NewGenericLister(NewIndexer(MetaNamespaceKeyFunc, Indexers{}), v1.Resource("pods"))
	if objs, err := empty.List(labels.Everything()); objs != nil || err != nil {
		t.Errorf("List of nothing = %v %v, want nil", objs, err)
	}
	if _, err := empty.ByNamespace("ns").Get("x"); !apierrors.IsNotFound(err) {
		t.Errorf("namespaced Get of a missing object = %v", err)
	}
}

// failingIndexer fails every GetByKey.
type failingIndexer struct {
	Indexer
	err error
}

func (f *failingIndexer) GetByKey(string) (interface{}, bool, error) { return nil, false, f.err }
