package cache

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

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
