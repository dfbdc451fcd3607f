package cache

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func TestIndexerMaintainsIndices(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{
		NamespaceIndex: MetaNamespaceIndexFunc,
		"color":        byLabel("color"),
	})
	add := func(p *v1.Pod) {
		if err := idx.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	add(pod("ns1", "a", "1", map[string]string{"color": "red,blue"}))
	add(pod("ns1", "b", "2", map[string]string{"color": "red"}))
	add(pod("ns2", "c", "3", map[string]string{"color": "green"}))

	check := func(index, value string, want ...string) {
		t.Helper()
		objs, err := idx.ByIndex(index, value)
		if err != nil {
			t.Fatal(err)
		}
		if got := keysOf(t, objs); strings.Join(got, ",") != strings.Join(sorted(want), ",") {
			t.Errorf("ByIndex(%s,%s) = %v, want %v", index, value, got, want)
		}
		keys, err := idx.IndexKeys(index, value)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(sorted(keys), ",") != strings.Join(sorted(want), ",") {
			t.Errorf("IndexKeys(%s,%s) = %v, want %v", index, value, keys, want)
		}
	}
	check("color", "red", "ns1/a", "ns1/b")
	check("color", "blue", "ns1/a")
	check(NamespaceIndex, "ns1", "ns1/a", "ns1/b")

	// Updates move keys between indexed values.
	if err := idx.Update(pod("ns1", "a", "4", map[string]string{"color": "green"})); err != nil {
		t.Fatal(err)
	}
	check("color", "red", "ns1/b")
	check("color", "blue")
	check("color", "green", "ns1/a", "ns2/c")
	if vals := sorted(idx.ListIndexFuncValues("color")); strings.Join(vals, ",") != "green,red" {
		t.Errorf("ListIndexFuncValues = %v (empty values must be dropped)", vals)
	}

	// Deletes remove keys.
	if err := idx.Delete(pod("ns2", "c", "5", nil)); err != nil {
		t.Fatal(err)
	}
	check("color", "green", "ns1/a")
	check(NamespaceIndex, "ns2")

	// Index() matches any shared value.
	objs, err := idx.Index("color", pod("", "probe", "", map[string]string{"color": "red,green"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(t, objs); strings.Join(got, ",") != "ns1/a,ns1/b" {
		t.Errorf("Index = %v", got)
	}

	if _, err := idx.ByIndex("missing", "x"); err == nil {
		t.Error("ByIndex on unknown index should fail")
	}
	if _, err := idx.IndexKeys("missing", "x"); err == nil {
		t.Error("IndexKeys on unknown index should fail")
	}

	// Replace rebuilds indices.
	if err := idx.Replace([]interface{}{pod("ns3", "z", "9", map[string]string{"color": "red"})}, "9"); err != nil {
		t.Fatal(err)
	}
	check("color", "red", "ns3/z")
	check(NamespaceIndex, "ns1")
}

func TestAddIndexers(t *testing.T) {
	idx := NewIndexer(MetaNamespaceKeyFunc, Indexers{})
	if err := idx.Add(pod("a", "x", "1", map[string]string{"tier": "web"})); err != nil {
		t.Fatal(err)
	}
	// Added after items exist: existing items are indexed.
	if err := idx.AddIndexers(Indexers{"tier": byLabel("tier")}); err != nil {
		t.Fatal(err)
	}
	if objs, _ := idx.ByIndex("tier", "web"); len(objs) != 1 {
		t.Errorf("existing item not indexed: %v", objs)
	}
	if err := idx.Add(pod("a", "y", "2", map[string]string{"tier": "web"})); err != nil {
		t.Fatal(err)
	}
	if objs, _ := idx.ByIndex("tier", "web"); len(objs) != 2 {
		t.Errorf("new item not indexed: %v", objs)
	}
	if err := idx.AddIndexers(Indexers{"tier": byLabel("tier")}); err == nil {
		t.Error("conflicting indexer name should fail")
	}
	if _, ok := idx.GetIndexers()["tier"]; !ok {
		t.Error("GetIndexers misses the new index")
	}
}

func TestIndexFuncToKeyFuncAdapter(t *testing.T) {
	kf := IndexFuncToKeyFuncAdapter(byLabel("id"))
	if k, err := kf(pod("", "", "", map[string]string{"id": "one"})); err != nil || k != "one" {
		t.Errorf("single value: %q %v", k, err)
	}
	if _, err := kf(pod("", "", "", map[string]string{"id": "a,b"})); err == nil {
		t.Error("several values should fail")
	}
}

func TestTypedIndexers(t *testing.T) {
	typed := TypedIndexers[*v1.Pod]{"name": func(p *v1.Pod) ([]string, error) { return []string{p.Name}, nil }}
	idx := NewIndexer(MetaNamespaceKeyFunc, TypedIndexersToIndexers(typed))
	if err := idx.Add(pod("a", "x", "1", nil)); err != nil {
		t.Fatal(err)
	}
	if objs, _ := idx.ByIndex("name", "x"); len(objs) != 1 {
		t.Errorf("typed index did not work: %v", objs)
	}
	if _, err := idx.GetIndexers()["name"](&v1.Node{}); err == nil {
		t.Error("typed index func must reject other types")
	}
}
