package cache

import (
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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

// TestThreadSafeStoreOperations applies a sequence of writes and checks
// the keys, the color index and the resource version after each.
func TestThreadSafeStoreOperations(t *testing.T) {
	colored := func(name, rv, color string) interface{} {
		return pod("ns", name, rv, map[string]string{"color": color})
	}
	type state struct {
		keys, red, blue, values, rv string
	}
	for _, tc := range []struct {
		name  string
		write func(s ThreadSafeStore)
		want  state
	}{
		{"add", func(s ThreadSafeStore) { s.Add("a", colored("a", "1", "red")) },
			state{keys: "a", red: "a", values: "red", rv: "1"}},
		{"update moves the index entry", func(s ThreadSafeStore) {
			s.Add("a", colored("a", "1", "red"))
			s.Update("a", colored("a", "2", "blue"))
		}, state{keys: "a", blue: "a", values: "blue", rv: "2"}},
		{"delete without object keeps the version", func(s ThreadSafeStore) {
			s.Add("a", colored("a", "1", "red"))
			s.Delete("a")
		}, state{rv: "1"}},
		{"delete with object takes its version", func(s ThreadSafeStore) {
			s.Add("a", colored("a", "1", "red"))
			s.DeleteWithObject("a", colored("a", "3", "red"))
		}, state{rv: "3"}},
		{"delete of a missing key", func(s ThreadSafeStore) { s.DeleteWithObject("x", colored("x", "4", "red")) },
			state{rv: "4"}},
		{"replace rebuilds the index", func(s ThreadSafeStore) {
			s.Add("a", colored("a", "1", "red"))
			s.Replace(map[string]interface{}{"b": colored("b", "5", "blue"), "c": colored("c", "5", "red")}, "9")
		}, state{keys: "b,c", red: "c", blue: "b", values: "blue,red", rv: "9"}},
		{"bookmark", func(s ThreadSafeStore) {
			s.Add("a", colored("a", "1", "red"))
			s.Bookmark("8")
		}, state{keys: "a", red: "a", values: "red", rv: "8"}},
		{"objects without metadata keep the version", func(s ThreadSafeStore) {
			s.Add("a", colored("a", "1", "red"))
			s.Add("z", ExplicitKey("z"))
		}, state{keys: "a,z", red: "a", values: "red", rv: "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewThreadSafeStore(Indexers{"color": func(obj interface{}) ([]string, error) {
				if p, ok := obj.(*v1.Pod); ok {
					return []string{p.Labels["color"]}, nil
				}
				return nil, nil
			}}, nil)
			tc.write(s)
			red, _ := s.IndexKeys("color", "red")
			blue, _ := s.IndexKeys("color", "blue")
			got := state{
				keys:   strings.Join(sorted(s.ListKeys()), ","),
				red:    strings.Join(sorted(red), ","),
				blue:   strings.Join(sorted(blue), ","),
				values: strings.Join(sorted(s.ListIndexFuncValues("color")), ","),
				rv:     s.LastStoreSyncResourceVersion(),
			}
			if got != tc.want {
				t.Errorf("state %+v, want %+v", got, tc.want)
			}
			if len(s.List()) != len(s.ListKeys()) {
				t.Errorf("List has %d objects for %d keys", len(s.List()), len(s.ListKeys()))
			}
			if err := s.Resync(); err != nil {
				t.Errorf("Resync = %v", err)
			}
		})
	}
}

func TestThreadSafeStoreIndexErrors(t *testing.T) {
	s := NewThreadSafeStore(nil, nil)
	if len(s.GetIndexers()) != 0 {
		t.Errorf("indexers %v", s.GetIndexers())
	}
	for name, call := range map[string]func() error{
		"Index":     func() error { _, err := s.Index("missing", pod("ns", "a", "1", nil)); return err },
		"ByIndex":   func() error { _, err := s.ByIndex("missing", "x"); return err },
		"IndexKeys": func() error { _, err := s.IndexKeys("missing", "x"); return err },
	} {
		if err := call(); err == nil || err.Error() != "index with name missing does not exist" {
			t.Errorf("%s of a missing index = %v", name, err)
		}
	}
	if err := s.AddIndexers(Indexers{"ns": MetaNamespaceIndexFunc}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddIndexers(Indexers{"ns": MetaNamespaceIndexFunc}); err == nil || !strings.Contains(err.Error(), "indexer conflict") {
		t.Errorf("second AddIndexers of the same name = %v", err)
	}
	s.Add("a", pod("ns1", "a", "1", nil))
	s.Add("b", pod("ns2", "b", "1", nil))
	objs, err := s.Index("ns", &metav1.ObjectMeta{Namespace: "ns1"})
	if err != nil || len(objs) != 1 {
		t.Errorf("Index(ns1) = %v %v", objs, err)
	}
	// An object with several indexed values matches the union.
	both := func(obj interface{}) ([]string, error) {
		if m, ok := obj.(*metav1.ObjectMeta); ok {
			return []string{m.Namespace, "ns2"}, nil
		}
		return MetaNamespaceIndexFunc(obj)
	}
	if err := s.AddIndexers(Indexers{"both": both}); err != nil {
		t.Fatal(err)
	}
	if objs, err := s.Index("both", &metav1.ObjectMeta{Namespace: "ns1"}); err != nil || len(objs) != 2 {
		t.Errorf("Index with two values = %d objects %v, want 2", len(objs), err)
	}
	if _, err := s.Index("ns", "no metadata"); err == nil {
		t.Error("the index function's error is not returned")
	}
}
