package cache

import (
	"errors"
	"sort"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func pod(ns, name, rv string, labels map[string]string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels}}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func keysOf(t *testing.T, objs []interface{}) []string {
	t.Helper()
	var keys []string
	for _, o := range objs {
		k, err := MetaNamespaceKeyFunc(o)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return sorted(keys)
}

func TestKeyFunctions(t *testing.T) {
	tests := []struct {
		name    string
		obj     interface{}
		key     string
		wantErr bool
	}{
		{"namespaced", pod("ns", "a", "", nil), "ns/a", false},
		{"cluster scoped", &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, "n1", false},
		{"explicit key", ExplicitKey("x/y"), "x/y", false},
		{"no metadata", "just a string", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key, err := MetaNamespaceKeyFunc(tc.obj)
			if (err != nil) != tc.wantErr || key != tc.key {
				t.Fatalf("MetaNamespaceKeyFunc = %q, %v; want %q, err=%v", key, err, tc.key, tc.wantErr)
			}
		})
	}
	tomb := DeletedFinalStateUnknown{Key: "gone/obj", Obj: nil}
	if key, err := DeletionHandlingMetaNamespaceKeyFunc(tomb); err != nil || key != "gone/obj" {
		t.Errorf("DeletionHandlingMetaNamespaceKeyFunc(tombstone) = %q, %v", key, err)
	}
	if name, err := DeletionHandlingObjectToName(tomb); err != nil || name != NewObjectName("gone", "obj") {
		t.Errorf("DeletionHandlingObjectToName(tombstone) = %v, %v", name, err)
	}
}

func TestSplitMetaNamespaceKey(t *testing.T) {
	tests := []struct {
		key, ns, name string
		wantErr       bool
	}{
		{"a/b", "a", "b", false},
		{"b", "", "b", false},
		{"/b", "", "b", false},
		{"a/b/c", "", "", true},
	}
	for _, tc := range tests {
		ns, name, err := SplitMetaNamespaceKey(tc.key)
		if ns != tc.ns || name != tc.name || (err != nil) != tc.wantErr {
			t.Errorf("SplitMetaNamespaceKey(%q) = %q, %q, %v", tc.key, ns, name, err)
		}
	}
}

func TestObjectNames(t *testing.T) {
	n := NewObjectName("ns", "x")
	if n.String() != "ns/x" || NewObjectName("", "x").String() != "x" {
		t.Errorf("String() wrong: %q", n.String())
	}
	if ns, name := n.Parts(); ns != "ns" || name != "x" {
		t.Errorf("Parts() = %q %q", ns, name)
	}
	if got := NamespacedNameAsObjectName(types.NamespacedName{Namespace: "a", Name: "b"}); got != NewObjectName("a", "b") {
		t.Errorf("NamespacedNameAsObjectName = %v", got)
	}
	if got := n.AsNamespacedName(); got.Namespace != "ns" || got.Name != "x" {
		t.Errorf("AsNamespacedName = %v", got)
	}
	if got := MetaObjectToName(pod("p", "q", "", nil)); got != NewObjectName("p", "q") {
		t.Errorf("MetaObjectToName = %v", got)
	}
	if got, err := ParseObjectName("a/b"); err != nil || got != NewObjectName("a", "b") {
		t.Errorf("ParseObjectName = %v %v", got, err)
	}
	if _, err := ObjectToName(42); err == nil {
		t.Error("ObjectToName(42) should fail")
	}
}

func TestStoreBasics(t *testing.T) {
	for name, s := range map[string]Store{
		"store":   NewStore(MetaNamespaceKeyFunc),
		"indexer": NewIndexer(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc}),
	} {
		t.Run(name, func(t *testing.T) {
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(s.Add(pod("a", "1", "10", nil)))
			must(s.Add(pod("a", "2", "11", nil)))
			must(s.Update(pod("a", "1", "12", nil)))
			if got := s.LastStoreSyncResourceVersion(); got != "12" {
				t.Errorf("rv after update = %q, want 12", got)
			}
			obj, ok, err := s.GetByKey("a/1")
			if err != nil || !ok || obj.(*v1.Pod).ResourceVersion != "12" {
				t.Fatalf("GetByKey = %v %v %v", obj, ok, err)
			}
			must(s.Delete(pod("a", "2", "13", nil)))
			if _, ok, _ := s.Get(pod("a", "2", "", nil)); ok {
				t.Error("deleted object still present")
			}
			if got := s.LastStoreSyncResourceVersion(); got != "13" {
				t.Errorf("rv after delete = %q, want 13", got)
			}
			must(s.Replace([]interface{}{pod("b", "x", "20", nil), pod("b", "y", "21", nil)}, "25"))
			if got := sorted(s.ListKeys()); strings.Join(got, ",") != "b/x,b/y" {
				t.Errorf("keys after replace = %v", got)
			}
			if got := s.LastStoreSyncResourceVersion(); got != "25" {
				t.Errorf("rv after replace = %q, want 25", got)
			}
			s.Bookmark("30")
			if got := s.LastStoreSyncResourceVersion(); got != "30" {
				t.Errorf("rv after bookmark = %q", got)
			}
			if len(s.List()) != 2 {
				t.Errorf("List() has %d items", len(s.List()))
			}
			if err := s.Add("no meta"); err == nil {
				t.Error("adding an object without metadata should fail")
			} else {
				var ke KeyError
				if !errors.As(err, &ke) {
					t.Errorf("error %v is not a KeyError", err)
				}
			}
		})
	}
}

func TestStoreTransformer(t *testing.T) {
	strip := func(obj interface{}) (interface{}, error) {
		p := obj.(*v1.Pod).DeepCopy()
		p.Labels = nil
		return p, nil
	}
	s := NewStore(MetaNamespaceKeyFunc, WithTransformer(strip))
	if err := s.Add(pod("a", "b", "1", map[string]string{"x": "y"})); err != nil {
		t.Fatal(err)
	}
	obj, _, _ := s.GetByKey("a/b")
	if obj.(*v1.Pod).Labels != nil {
		t.Error("transformer not applied on Add")
	}
	if err := s.Replace([]interface{}{pod("a", "c", "2", map[string]string{"x": "y"})}, "2"); err != nil {
		t.Fatal(err)
	}
	obj, _, _ = s.GetByKey("a/c")
	if obj.(*v1.Pod).Labels != nil {
		t.Error("transformer not applied on Replace")
	}
}

func byLabel(label string) IndexFunc {
	return func(obj interface{}) ([]string, error) {
		v, ok := obj.(*v1.Pod).Labels[label]
		if !ok {
			return nil, nil
		}
		return strings.Split(v, ","), nil
	}
}

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

func TestThreadSafeStoreDirect(t *testing.T) {
	s := NewThreadSafeStore(Indexers{"color": byLabel("color")}, Indices{})
	s.Add("k1", pod("a", "k1", "1", map[string]string{"color": "red"}))
	s.Update("k1", pod("a", "k1", "2", map[string]string{"color": "blue"}))
	if keys, _ := s.IndexKeys("color", "red"); len(keys) != 0 {
		t.Errorf("stale index entry: %v", keys)
	}
	s.Delete("k1")
	if _, ok := s.Get("k1"); ok {
		t.Error("Delete did not remove")
	}
	if vals := s.ListIndexFuncValues("color"); len(vals) != 0 {
		t.Errorf("index values left after delete: %v", vals)
	}
	tx := s.(ThreadSafeStoreWithTransaction)
	tx.Transaction(
		ThreadSafeStoreTransaction{Transaction{pod("a", "x", "5", nil), TransactionTypeAdd}, "x"},
		ThreadSafeStoreTransaction{Transaction{pod("a", "y", "6", nil), TransactionTypeAdd}, "y"},
		ThreadSafeStoreTransaction{Transaction{pod("a", "x", "7", nil), TransactionTypeDelete}, "x"},
	)
	if keys := s.ListKeys(); strings.Join(keys, ",") != "y" || s.LastStoreSyncResourceVersion() != "7" {
		t.Errorf("after transaction keys=%v rv=%q", keys, s.LastStoreSyncResourceVersion())
	}
}

func TestCacheTransactionReportsBadObjects(t *testing.T) {
	s := NewStore(MetaNamespaceKeyFunc).(TransactionStore)
	err := s.Transaction(
		Transaction{Object: pod("a", "b", "1", nil), Type: TransactionTypeAdd},
		Transaction{Object: 17, Type: TransactionTypeAdd},
	)
	if err == nil || len(err.SuccessfulIndices) != 1 || err.SuccessfulIndices[0] != 0 || err.TotalTransactions != 2 {
		t.Fatalf("TransactionError = %+v", err)
	}
	if !strings.Contains(err.Error(), "1 of 2") {
		t.Errorf("Error() = %q", err.Error())
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
