package cache

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestStoreIndexNamespacePath applies the same writes to an index by
// MetaNamespaceIndexFunc, which storeIndex updates on its own path, and to
// an index by an equal function it does not recognise, which takes the
// general path; both must hold the same keys after every write.
func TestStoreIndexNamespacePath(t *testing.T) {
	type write struct {
		key      string
		old, new interface{}
	}
	a1, a2, b2 := pod("ns1", "a", "1", nil), pod("ns2", "a", "2", nil), pod("ns2", "b", "1", nil)
	tests := []struct {
		name   string
		writes []write
		want   string
	}{
		{name: "add", writes: []write{{"a", nil, a1}}, want: "map[ns1:{a}]"},
		{name: "update in place", writes: []write{{"a", nil, a1}, {"a", a1, pod("ns1", "a", "5", nil)}}, want: "map[ns1:{a}]"},
		{name: "move to another namespace", writes: []write{{"a", nil, a1}, {"a", a1, a2}}, want: "map[ns2:{a}]"},
		{name: "two in one namespace", writes: []write{{"a", nil, a2}, {"b", nil, b2}}, want: "map[ns2:{a,b}]"},
		{name: "the last delete drops the value", writes: []write{{"a", nil, a1}, {"b", nil, b2}, {"a", a1, nil}}, want: "map[ns2:{b}]"},
		{name: "delete of one of two", writes: []write{{"a", nil, a2}, {"b", nil, b2}, {"b", b2, nil}}, want: "map[ns2:{a}]"},
	}
	sameAsNamespace := func(obj interface{}) ([]string, error) { return MetaNamespaceIndexFunc(obj) }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fast := newStoreIndex(Indexers{"ns": MetaNamespaceIndexFunc}, Indices{})
			general := newStoreIndex(Indexers{"ns": sameAsNamespace}, Indices{})
			if !fast.namespaceIndexes["ns"] || general.namespaceIndexes["ns"] {
				t.Fatalf("namespace path chosen: %v for MetaNamespaceIndexFunc, %v for a wrapper",
					fast.namespaceIndexes["ns"], general.namespaceIndexes["ns"])
			}
			for i, w := range tc.writes {
				fast.update(w.old, w.new, w.key)
				general.update(w.old, w.new, w.key)
				if !reflect.DeepEqual(fast.indices, general.indices) {
					t.Fatalf("after write %d: namespace path %v, general path %v", i, describeIndex(fast.indices["ns"]), describeIndex(general.indices["ns"]))
				}
			}
			if got := describeIndex(fast.indices["ns"]); got != tc.want {
				t.Errorf("index %s, want %s", got, tc.want)
			}
		})
	}
}

// describeIndex prints an index with sorted keys.
func describeIndex(idx index) string {
	out := map[string]string{}
	for value, keys := range idx {
		out[value] = "{" + strings.Join(sorted(keys.UnsortedList()), ",") + "}"
	}
	return fmt.Sprint(out)
}
