package cache

import (
	"strings"
	"testing"

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
